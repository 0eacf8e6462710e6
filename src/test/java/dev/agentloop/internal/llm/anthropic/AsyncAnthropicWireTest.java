package dev.agentloop.internal.llm.anthropic;

import dev.agentloop.internal.llm.Streaming;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.message;
import static dev.agentloop.internal.llm.anthropic.FakeAnthropicServer.text;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.internal.llm.FakeModelServer;
import dev.agentloop.internal.llm.ModelCalls;
import dev.agentloop.internal.llm.limits.CallTicket;
import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Anthropic's wire on the JDK's asynchronous client, against the local fake: calls under way together on a single
 * reply thread, a 429's {@code retry-after} and a used-up {@code anthropic-ratelimit-*} limit hold the next calls
 * back (lower bounds on time only), and an event stream where one reply belongs is said in words.
 */
class AsyncAnthropicWireTest {

  private FakeAnthropicServer server;
  private ExecutorService oneReplyThread;
  private ScheduledExecutorService timer;

  @BeforeEach
  void start() throws IOException {
    server = new FakeAnthropicServer();
    oneReplyThread = Executors.newSingleThreadExecutor();
    timer = Executors.newSingleThreadScheduledExecutor();
  }

  @AfterEach
  void stop() {
    server.close();
    oneReplyThread.shutdownNow();
    timer.shutdownNow();
  }

  @Test
  void should_have_ten_calls_at_the_endpoint_at_once_with_a_single_reply_thread() {
    // given an endpoint that answers only once all ten calls are with it at the same time
    CountDownLatch allThere = new CountDownLatch(10);
    server.answerWith(request -> {
      allThere.countDown();
      return new FakeModelServer.Reply(arrived(allThere) ? 200 : 529, message("end_turn", 3, 1, text("all there")),
          Duration.ZERO, Map.of());
    });
    AnthropicMessagesChatModel model = model(null);

    // when
    List<CompletableFuture<ModelReply>> calls = IntStream.range(0, 10)
        .mapToObj(i -> model.chat(simple()).toCompletableFuture()).toList();

    // then each is answered: none waited for a thread while the others were under way
    assertThat(calls).allSatisfy(call -> assertThat(ModelCalls.reply(call).text()).isEqualTo("all there"));
  }

  private static boolean arrived(CountDownLatch latch) {
    try {
      return latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Test
  void should_hold_the_next_calls_back_as_long_as_a_429_asks() {
    server.respond(429, FakeAnthropicServer.error("rate_limit_error", "Number of requests has exceeded your rate limit"),
        Map.of("retry-after", "2", "anthropic-ratelimit-requests-remaining", "0"), Duration.ZERO);
    server.respond(200, message("end_turn", 3, 1, text("fine")));
    ModelQueue queue = new ModelQueue(10, 0, 0, timer);
    AnthropicMessagesChatModel model = model(queue);

    ModelCallException refused = ModelCalls.failure(queue.run(ticket("run-1"), admitted -> model.chat(simple())));
    CompletionStage<ModelReply> next = queue.run(ticket("run-2"), admitted -> model.chat(simple()));

    assertThat(refused.httpStatus()).isEqualTo(429);
    assertThat(refused.isRetryable()).isTrue();
    assertThat(ModelCalls.reply(next).text()).isEqualTo("fine");
    assertThat(gap()).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void should_hold_the_next_calls_back_until_a_used_up_limit_resets() {
    // given an answer that says the input tokens are used up until 2 s from now
    long now = System.nanoTime();
    String reset = Instant.now().plusSeconds(2).toString();
    server.respond(200, message("end_turn", 3, 1, text("the last tokens this minute")),
        Map.of("anthropic-ratelimit-input-tokens-remaining", "0", "anthropic-ratelimit-input-tokens-reset", reset),
        Duration.ZERO);
    server.respond(200, message("end_turn", 3, 1, text("fine")));
    ModelQueue queue = new ModelQueue(10, 0, 0, timer);
    AnthropicMessagesChatModel model = model(queue);

    // when
    ModelReply first = ModelCalls.reply(queue.run(ticket("run-1"), admitted -> model.chat(simple())));
    ModelReply second = ModelCalls.reply(queue.run(ticket("run-2"), admitted -> model.chat(simple())));

    // then the second went no sooner than the reset (less a little for the two clocks the reset is read with)
    assertThat(first.text()).isEqualTo("the last tokens this minute");
    assertThat(second.text()).isEqualTo("fine");
    assertThat(Duration.ofNanos(server.arrivals().get(1) - now)).isGreaterThanOrEqualTo(Duration.ofMillis(1900));
  }

  @Test
  void should_say_in_words_that_an_event_stream_came_where_one_reply_belongs() {
    server.respond(200, "event: message_start\ndata: {\"type\":\"message_start\"}\n\n",
        Map.of("Content-Type", "text/event-stream"), Duration.ZERO);

    // streams off (agentloop.llm.stream=false)
    ModelCallException failure = ModelCalls.failure(new AnthropicMessagesChatModel(server.baseUrl(), "sk-ant-test",
        "claude-test", Duration.ofSeconds(30), null, 1024, 0, oneReplyThread, (status, headers) -> { },
        Streaming.OFF).chat(simple()));

    assertThat(failure.getMessage()).contains("answered with an event stream (text/event-stream) although the request"
        + " asked for no stream");
    assertThat(failure.isRetryable()).isFalse();
  }

  private AnthropicMessagesChatModel model(ModelQueue queue) {
    return new AnthropicMessagesChatModel(server.baseUrl(), "sk-ant-test", "claude-test", Duration.ofSeconds(30), null,
        1024, 0, oneReplyThread, queue == null ? (status, headers) -> { } : queue::answered);
  }

  private Duration gap() {
    List<Long> arrivals = server.arrivals();
    return Duration.ofNanos(arrivals.get(1) - arrivals.get(0));
  }

  private static CallTicket ticket(String run) {
    return new CallTicket(run, 0, null);
  }

  private static ModelRequest simple() {
    return ModelCalls.request(List.of(), new ChatMessage.UserMessage("Hello?"));
  }
}
