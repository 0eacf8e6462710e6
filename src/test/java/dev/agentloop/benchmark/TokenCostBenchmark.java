package dev.agentloop.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.PromptFixture;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.definition.RevisionsRunOut;
import dev.agentloop.internal.llm.FakeModelServer;
import dev.agentloop.internal.llm.anthropic.AnthropicMessagesChatModel;
import dev.agentloop.internal.llm.openai.OpenAiCompatibleChatModel;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.spi.ToolSpec;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What a long run costs in prompt tokens, on both wires, with AgentLoop's layout (a context budget:
 * digest blocks folding once more into coarse ones, a stable prefix, Anthropic cache breakpoints) and with the baseline (the window of
 * the latest 60 steps, sliding a step at a time, no digest). A 200-turn run: at each turn the prompt
 * is built from the active path by AgentLoop's prompt builder, sent by the real adapter to a local fake of
 * the provider, which plays the scripted model (a call at every turn, the answer at turn 200, found in
 * the prompt or not), counts tokens with a simple tokenizer and caches prompt prefixes as the provider
 * documents it; the turn's thought, call and result are appended to the path as the handlers would.
 * Observations are realistic: pages of 1,200 to 4,000 characters, a short calculator result every
 * fourth turn. Printed: prompt tokens at turns 10, 50, 100 and 200, and the share of prompt tokens
 * served from cache after turn 10.
 */
@Tag("benchmark")
class TokenCostBenchmark {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int TURNS = 200;
  private static final String QUESTION = "Which code opens the vault, according to the archive?";
  private static final List<ToolSpec> TOOLS = List.of(
      tool("calculator", "Evaluates an arithmetic expression such as (17 * 23) + 366 and returns the number.",
          "expression"),
      tool("read_document", "Reads a document of the company archive by its page number and returns its text.",
          "page"),
      tool("http_get", "Fetches a web page over HTTP GET and returns its text, without markup.", "url"),
      tool("current_time", "Returns the current date and time in UTC, in ISO-8601.", "zone"),
      tool("ask_human", "Asks a person a question and returns their answer; use it when only a person can know.",
          "question"));
  private static final AgentSettings BASELINE = new AgentSettings(
      "You are a careful assistant that solves the user's question step by step. Use the tools when they help;"
          + " never guess what a tool can compute or look up. When you know the answer, reply with the final"
          + " answer as plain text and no tool call.", "Plan.", Set.of("*"), TURNS, 60, 4_000, 200_000, true, true, 2,
      RevisionsRunOut.ACCEPT, Duration.ofHours(1));
  /** The default budget, {@code agentloop.agent.context-budget-tokens}. */
  private static final AgentSettings AGENTLOOP = BASELINE.withContextBudgetTokens(6_000);

  @Test
  void token_cost_of_a_200_turn_run() throws Exception {
    List<String> lines = new ArrayList<>();
    for (String wire : List.of("openai", "anthropic")) {
      for (String layout : List.of("agentloop", "baseline")) {
        Figures figures = run(wire, layout.equals("agentloop") ? AGENTLOOP : BASELINE);
        if (layout.equals("agentloop")) {
          // the goals, held at every turn, not only at turn 200, and the early fact still read
          assertThat(figures.largest()).as("%s: the largest prompt against 1.5x turn 10's", wire)
              .isLessThanOrEqualTo(figures.at(10) * 3 / 2);
          assertThat(figures.cachedShareAfter(10)).as("%s: share from cache", wire).isGreaterThanOrEqualTo(70.0);
          assertThat(figures.answer()).as("%s: the answer at turn 200", wire).contains("4711");
        }
        lines.add(String.format(Locale.ROOT, "token cost %s %s: step 10 %d tokens, step 200 %d tokens (%.2fx),"
            + " from cache %.1f %%", wire, layout, figures.at(10), figures.at(200),
            (double) figures.at(200) / figures.at(10), figures.cachedShareAfter(10)));
        lines.add(String.format(Locale.ROOT, "token cost %s %s detail: step 50 %d, step 100 %d, largest %d, all prompts %d tokens,"
            + " %d from cache; answer at step 200: %s", wire, layout, figures.at(50), figures.at(100),
            figures.largest(), figures.total(), figures.cachedTotal(), figures.answer()));
      }
    }
    BenchmarkReport.print("Token cost (issue 33): 200-turn run, pages of 1,200 to 4,000 characters, fake providers"
        + " that count tokens and cache prefixes", String.join("\n", lines));
  }

  /** Prompt tokens and cached prompt tokens per turn, as the fake provider counted them. */
  record Figures(List<Integer> prompt, List<Integer> cached, String answer) {

    int at(int turn) {
      return prompt.get(turn - 1);
    }

    int largest() {
      return prompt.stream().mapToInt(Integer::intValue).max().orElse(0);
    }

    long total() {
      return prompt.stream().mapToLong(Integer::longValue).sum();
    }

    long cachedTotal() {
      return cached.stream().mapToLong(Integer::longValue).sum();
    }

    double cachedShareAfter(int turn) {
      long all = prompt.subList(turn, prompt.size()).stream().mapToLong(Integer::longValue).sum();
      long hit = cached.subList(turn, cached.size()).stream().mapToLong(Integer::longValue).sum();
      return 100.0 * hit / all;
    }
  }

  private static Figures run(String wire, AgentSettings settings) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(1);
    CachingProvider provider = wire.equals("openai") ? new OpenAiPrefixCache() : new AnthropicBreakpointCache();
    try (FakeModelServer server = new FakeModelServer(wire.equals("openai") ? "/v1/chat/completions" : "/v1/messages",
        "fake-" + wire, new FakeModelServer.Reply(500, "{}", Duration.ZERO, Map.of()))) {
      server.answerWith(provider::answer);
      ChatModel model = wire.equals("openai")
          ? new OpenAiCompatibleChatModel(server.origin() + "/v1", "sk-test", "gpt-test", Duration.ofSeconds(30), null,
              pool)
          : new AnthropicMessagesChatModel(server.origin() + "/v1/", "sk-ant-test", "claude-test",
              Duration.ofSeconds(30), null, 1024, 0, pool);
      PromptFixture run = new PromptFixture(QUESTION,
          List.of("Read the archive page by page", "Note what matters", "Say the vault code"));
      String answer = "none";
      for (int turn = 1; turn <= TURNS; turn++) {
        ModelRequest request = run.thinkRequest(settings, TOOLS, model::estimateTokens);
        ModelReply reply = model.chat(request).toCompletableFuture().get();
        if (reply.toolCalls().isEmpty()) {
          answer = reply.text();
          break;
        }
        ToolCall call = reply.toolCalls().get(0);
        Action action = new Action(call.id(), call.name(), JSON.readTree(call.arguments()), null);
        run.addTurn(reply.text(), action, Observation.result(action, result(turn)));
      }
      return new Figures(provider.prompt, provider.cached, answer);
    } finally {
      pool.shutdownNow();
    }
  }

  /** A page of the archive or a number: page 3 holds the code that the answer at turn 200 needs. */
  private static String result(int turn) {
    if (turn % 4 == 0) {
      return String.valueOf(turn * 37 + 11);
    }
    StringBuilder text = new StringBuilder("Archive page ").append(turn).append(". ");
    if (turn == 3) {
      text.append("The vault code is 4711. ");
    }
    int length = 1_200 + (turn * 373) % 2_800;
    String[] words = {"budget", "meeting", "quarterly", "report", "department", "decided", "review", "the", "of",
        "and", "was", "to", "contract", "supplier", "invoice", "approved", "March", "team", "project", "delivery"};
    for (int i = 0; text.length() < length; i++) {
      text.append(words[(i * 7 + turn) % words.length]).append(i % 11 == 10 ? ". " : " ");
    }
    return text.toString();
  }

  private static ToolSpec tool(String name, String description, String parameter) {
    ObjectNode schema = JSON.createObjectNode().put("type", "object");
    schema.putObject("properties").putObject(parameter).put("type", "string")
        .put("description", "The " + parameter + " to use.");
    schema.putArray("required").add(parameter);
    schema.put("additionalProperties", false);
    return new ToolSpec(name, description, schema);
  }

  /**
   * A fake provider: plays the scripted model, counts the prompt's tokens and what its cache served.
   * The model reads page after page (a calculator call every fourth turn) and at turn 200 answers with
   * the vault code if its prompt still holds it.
   */
  abstract static class CachingProvider {

    final List<Integer> prompt = new ArrayList<>();
    final List<Integer> cached = new ArrayList<>();

    FakeModelServer.Reply answer(FakeModelServer.Received received) {
      JsonNode body = received.body();
      int turn = prompt.size() + 1;
      int[] counted = count(body);
      prompt.add(counted[0]);
      cached.add(counted[1]);
      String reply;
      if (turn == TURNS) {
        String text = body.toString().contains("The vault code is 4711") ? "The vault code is 4711."
            : "The archive I can see does not say.";
        reply = reply(text, null, null, counted);
      } else if (turn % 4 == 0) {
        reply = reply("A sum.", "calculator", "{\"expression\":\"" + turn + " * 37 + 11\"}", counted);
      } else {
        reply = reply("Page " + turn + ".", "read_document", "{\"page\":\"" + turn + "\"}", counted);
      }
      return new FakeModelServer.Reply(200, reply, Duration.ZERO, Map.of());
    }

    /** The prompt's tokens and how many of them the cache served. */
    abstract int[] count(JsonNode body);

    abstract String reply(String text, String tool, String arguments, int[] counted);

    static int commonPrefix(List<String> a, List<String> b) {
      int n = Math.min(a.size(), b.size());
      int i = 0;
      while (i < n && a.get(i).equals(b.get(i))) {
        i++;
      }
      return i;
    }
  }

  /**
   * OpenAI's automatic prompt caching: prompts of 1,024 tokens and more; the longest prefix shared with
   * an earlier prompt is served from cache, in steps of 128 tokens after the first 1,024. Tools come
   * first, then the messages in order.
   */
  static final class OpenAiPrefixCache extends CachingProvider {

    private final List<List<String>> earlier = new ArrayList<>();

    @Override
    int[] count(JsonNode body) {
      List<String> tokens = new ArrayList<>(Tokenizer.tokens("tools: " + body.path("tools")));
      body.path("messages").forEach(message -> tokens.addAll(Tokenizer.tokens(message.path("role").asText() + ": "
          + message.path("content").asText() + message.path("tool_calls") + message.path("tool_call_id").asText())));
      // the latest prompts share the longest prefix; a cache keeps a prefix for minutes, not for the whole run
      int longest = earlier.subList(Math.max(0, earlier.size() - 20), earlier.size()).stream().mapToInt(previous -> commonPrefix(previous, tokens)).max().orElse(0);
      earlier.add(tokens);
      int hit = longest < 1_024 ? 0 : 1_024 + (longest - 1_024) / 128 * 128;
      return new int[] {tokens.size(), hit};
    }

    @Override
    String reply(String text, String tool, String arguments, int[] counted) {
      ObjectNode root = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion")
          .put("created", 1_700_000_000).put("model", "gpt-test");
      ObjectNode choice = root.putArray("choices").addObject().put("index", 0);
      ObjectNode message = choice.putObject("message").put("role", "assistant").put("content", text);
      if (tool != null) {
        ObjectNode call = message.putArray("tool_calls").addObject().put("id", "call_" + prompt.size())
            .put("type", "function");
        call.putObject("function").put("name", tool).put("arguments", arguments);
      }
      choice.put("finish_reason", tool != null ? "tool_calls" : "stop");
      ObjectNode usage = root.putObject("usage").put("prompt_tokens", counted[0]).put("completion_tokens", 20)
          .put("total_tokens", counted[0] + 20);
      usage.putObject("prompt_tokens_details").put("cached_tokens", counted[1]);
      return root.toString();
    }
  }

  /**
   * Anthropic's prompt caching: tools, then system, then the messages' blocks; a prefix is cached only
   * where a block carries {@code cache_control}, and read only when it matches a cached one exactly: at
   * each breakpoint the cache looks for an entry ending there or at one of the 20 blocks before it, and
   * a request writes an entry at each of its breakpoints. Prefixes under 1,024 tokens are not cached.
   */
  static final class AnthropicBreakpointCache extends CachingProvider {

    private final Set<List<String>> entries = new java.util.HashSet<>();

    @Override
    int[] count(JsonNode body) {
      List<JsonNode> blocks = new ArrayList<>();
      body.path("tools").forEach(blocks::add);
      body.path("system").forEach(blocks::add);
      body.path("messages").forEach(message -> message.path("content").forEach(blocks::add));
      List<String> tokens = new ArrayList<>();
      List<Integer> ends = new ArrayList<>();
      List<Integer> breakpoints = new ArrayList<>();
      for (int i = 0; i < blocks.size(); i++) {
        ObjectNode block = blocks.get(i).deepCopy();
        if (block.remove("cache_control") != null) {
          breakpoints.add(i);
        }
        tokens.addAll(Tokenizer.tokens(block.toString()));
        ends.add(tokens.size());
      }
      int read = 0;
      for (int breakpoint : breakpoints) {
        for (int i = breakpoint; i >= Math.max(0, breakpoint - 20); i--) {
          if (ends.get(i) >= 1_024 && entries.contains(tokens.subList(0, ends.get(i)))) {
            read = Math.max(read, ends.get(i));
            break;
          }
        }
      }
      for (int breakpoint : breakpoints) {
        if (ends.get(breakpoint) >= 1_024) {
          entries.add(List.copyOf(tokens.subList(0, ends.get(breakpoint))));
        }
      }
      return new int[] {tokens.size(), read};
    }

    @Override
    String reply(String text, String tool, String arguments, int[] counted) {
      ObjectNode root = JSON.createObjectNode().put("id", "msg_1").put("type", "message").put("role", "assistant")
          .put("model", "claude-test");
      var content = root.putArray("content");
      content.addObject().put("type", "text").put("text", text);
      if (tool != null) {
        try {
          content.addObject().put("type", "tool_use").put("id", "toolu_" + prompt.size()).put("name", tool)
              .set("input", JSON.readTree(arguments));
        } catch (Exception e) {
          throw new IllegalStateException(e);
        }
      }
      root.put("stop_reason", tool != null ? "tool_use" : "end_turn");
      root.putNull("stop_sequence");
      root.putObject("usage").put("input_tokens", counted[0] - counted[1]).put("output_tokens", 20)
          .put("cache_creation_input_tokens", 0).put("cache_read_input_tokens", counted[1]);
      return root.toString();
    }
  }

  /** A simple tokenizer: words in pieces of up to four letters, numbers of up to three digits, each other sign. */
  static final class Tokenizer {

    private static final java.util.regex.Pattern TOKEN =
        java.util.regex.Pattern.compile("\\s?[A-Za-z]{1,4}|\\s?[0-9]{1,3}|\\s?\\S|\\s+");

    static List<String> tokens(String text) {
      List<String> tokens = new ArrayList<>();
      java.util.regex.Matcher m = TOKEN.matcher(text);
      while (m.find()) {
        tokens.add(m.group());
      }
      return tokens;
    }
  }
}
