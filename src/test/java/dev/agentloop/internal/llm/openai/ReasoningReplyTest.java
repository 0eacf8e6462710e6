package dev.agentloop.internal.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolCall;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The shapes in which reasoning models answer on the OpenAI wire (Qwen3 and DeepSeek-R1 distills on
 * vLLM, Ollama, LM Studio; DeepSeek's own API): the reasoning always ends up in
 * {@link ModelReply#reasoning()}, never in the text the agent uses.
 */
class ReasoningReplyTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private FakeOpenAiServer server;
  private ExecutorService pool;

  @BeforeEach
  void start() throws IOException {
    server = new FakeOpenAiServer();
    pool = Executors.newFixedThreadPool(1);
  }

  @AfterEach
  void stop() {
    pool.shutdownNow();
    server.close();
  }

  @Test
  void should_take_a_think_block_at_the_start_of_the_content_out_of_the_text() {
    ModelReply reply = answer(content("<think>\nThe user wants 17 * 23. That is 391.\n</think>\n\n17 * 23 = 391"));

    assertThat(reply.text()).isEqualTo("17 * 23 = 391");
    assertThat(reply.reasoning()).isEqualTo("The user wants 17 * 23. That is 391.");
  }

  @Test
  void should_drop_the_empty_think_block_of_a_model_whose_thinking_is_switched_off() {
    ModelReply reply = answer(content("<think>\n\n</think>\n\nHello!"));

    assertThat(reply.text()).isEqualTo("Hello!");
    assertThat(reply.reasoning()).isEmpty();
  }

  @Test
  void should_take_reasoning_out_when_the_chat_template_opened_the_think_tag_in_the_prompt() {
    ModelReply reply = answer(content("Okay, 2 + 2 is 4.\n</think>\n\nThe answer is 4."));

    assertThat(reply.text()).isEqualTo("The answer is 4.");
    assertThat(reply.reasoning()).isEqualTo("Okay, 2 + 2 is 4.");
  }

  @Test
  void should_treat_an_unterminated_think_block_as_reasoning_only() {
    ModelReply reply = answer(content("  <think>I should first check the policy, then I will"));

    assertThat(reply.text()).isEmpty();
    assertThat(reply.reasoning()).isEqualTo("I should first check the policy, then I will");
  }

  @Test
  void should_keep_deepseeks_reasoning_content_apart_from_the_content() {
    ModelReply reply = answer(completion(message -> message.put("content", "Paris.")
        .put("reasoning_content", "The capital of France is Paris.")));

    assertThat(reply.text()).isEqualTo("Paris.");
    assertThat(reply.reasoning()).isEqualTo("The capital of France is Paris.");
  }

  @Test
  void should_give_an_empty_text_when_the_model_sent_only_reasoning_content() {
    ModelReply reply = answer(completion(message -> message.putNull("content")
        .put("reasoning_content", "Hmm, let me think about the plan.")));

    assertThat(reply.text()).isEmpty();
    assertThat(reply.reasoning()).isEqualTo("Hmm, let me think about the plan.");
    assertThat(reply.toolCalls()).isEmpty();
  }

  @Test
  void should_keep_the_tool_calls_of_a_reply_whose_content_is_only_a_think_block() {
    ModelReply reply = answer(completion(message -> {
      message.put("content", "<think>I need the calculator.</think>");
      message.putArray("tool_calls").addObject().put("id", "call_1").put("type", "function")
          .putObject("function").put("name", "calculator").put("arguments", "{\"expression\": \"17 * 23\"}");
    }));

    assertThat(reply.text()).isEmpty();
    assertThat(reply.reasoning()).isEqualTo("I need the calculator.");
    assertThat(reply.toolCalls()).containsExactly(new ToolCall("call_1", "calculator", "{\"expression\": \"17 * 23\"}"));
  }

  @Test
  void should_join_reasoning_content_and_a_think_block() {
    ModelReply reply = answer(completion(message -> message.put("content", "<think>second</think>done")
        .put("reasoning_content", "first")));

    assertThat(reply.text()).isEqualTo("done");
    assertThat(reply.reasoning()).isEqualTo("first\n\nsecond");
  }

  @Test
  void should_leave_think_tags_alone_that_come_after_the_reply_began() {
    String text = "Qwen3 writes its reasoning as <think>…</think> before the answer.";

    ModelReply reply = answer(content(text));

    assertThat(reply.text()).isEqualTo(text);
    assertThat(reply.reasoning()).isEmpty();
  }

  @Test
  void should_never_send_reasoning_back_to_the_model() {
    server.respond(200, FakeOpenAiServer.textCompletion("ok", 1, 1));
    ModelRequest request = new ModelRequest(ModelRequest.Purpose.THINK, List.of(
        new ChatMessage.UserMessage("q"), new ChatMessage.AssistantMessage("I will search.", List.of())),
        List.of(), runInfo());

    call(request);

    var assistant = server.onlyRequest().body().path("messages").get(1);
    assertThat(assistant.has("reasoning_content")).isFalse();
    assertThat(assistant.path("content").asText()).isEqualTo("I will search.");
  }

  // --- helpers ---

  private ModelReply answer(String body) {
    server.respond(200, body);
    return call(new ModelRequest(ModelRequest.Purpose.THINK, List.of(new ChatMessage.UserMessage("Hello?")), List.of(),
        runInfo()));
  }

  private ModelReply call(ModelRequest request) {
    return new OpenAiCompatibleChatModel(server.baseUrl(), "", "qwen3", Duration.ofSeconds(5), null, pool).chat(request)
        .toCompletableFuture().orTimeout(15, TimeUnit.SECONDS).join();
  }

  private static ModelRequest.RunInfo runInfo() {
    return new ModelRequest.RunInfo("run-1", "Hello?", 1, 0);
  }

  private static String content(String text) {
    return FakeOpenAiServer.textCompletion(text, 10, 20);
  }

  /** A chat.completion in the real wire format whose assistant message the caller shapes. */
  static String completion(Consumer<ObjectNode> message) {
    try {
      ObjectNode root = (ObjectNode) JSON.readTree(FakeOpenAiServer.textCompletion("", 10, 20));
      message.accept((ObjectNode) root.at("/choices/0/message"));
      return root.toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
