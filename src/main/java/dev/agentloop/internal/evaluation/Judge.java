package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.llm.Money;
import dev.agentloop.internal.resilience.ModelGuard;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The judge of an evaluation: asks a model to score a candidate's answer against the reference answer by the
 * evaluation's rubric, 0 to 1, with its reasoning, and counts what the call cost. The configured model, or another one
 * by name on the same endpoint; either way through the guard every model call of AgentLoop takes (retries, the
 * endpoint's breaker, a time-out). A reply without a score is a judge that could not judge, which fails the check.
 * Thread-safe.
 */
class Judge {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int QUOTED_CHARS = 300;

  private final ChatModel configured;
  private final NamedModels named;
  private final ModelGuard guard;
  private final ModelPrices prices;

  /** @param configured the agents' model, guarded */
  Judge(ChatModel configured, NamedModels named, ModelGuard guard, ModelPrices prices) {
    this.configured = configured;
    this.named = named;
    this.guard = guard;
    this.prices = prices;
  }

  /** @throws IllegalArgumentException when the judge names a model the configured provider cannot serve */
  void requireModel(JudgeSpec spec) {
    if (spec != null && spec.model() != null && !named.servesByName()) {
      named.named(spec.model());
    }
  }

  CompletionStage<JudgeScore> score(JudgeSpec spec, String runId, String question, String reference, String answer) {
    ChatModel model = spec.model() == null ? configured : guard.guard(named.named(spec.model()));
    ModelRequest request = new ModelRequest(ModelRequest.Purpose.THINK, List.of(
        new ChatMessage.SystemMessage(instructions(spec.rubric())),
        new ChatMessage.UserMessage("Question:\n" + question + "\n\nReference answer:\n" + reference
            + "\n\nCandidate answer:\n" + answer)), List.of(), new ModelRequest.RunInfo(runId, question, 1, 0));
    return model.chat(request).handle((reply, failure) -> failure != null
        ? JudgeScore.failed("the judge's model call failed: " + rootMessage(failure), 1, 0, null)
        : read(reply, spec.threshold()));
  }

  private JudgeScore read(ModelReply reply, double threshold) {
    long tokens = reply.tokens();
    BigDecimal cost = prices.cost(reply.model(), reply.usage().prompt(), reply.usage().cacheRead(),
        reply.usage().cacheWrite(), reply.usage().completion()).map(Money::amount).orElse(null);
    String text = reply.text() == null ? "" : reply.text();
    int start = text.indexOf('{');
    int end = text.lastIndexOf('}');
    try {
      JsonNode verdict = start < 0 || end < start ? null : JSON.readTree(text.substring(start, end + 1));
      JsonNode score = verdict == null ? null : verdict.get("score");
      if (score == null || !score.isNumber() || score.asDouble() < 0 || score.asDouble() > 1) {
        return JudgeScore.failed("the judge's reply held no score between 0 and 1: " + quoted(text), 1, tokens, cost);
      }
      return new JudgeScore(score.asDouble(), threshold, verdict.path("reasoning").asText(""), null, 1, tokens, cost);
    } catch (Exception e) {
      return JudgeScore.failed("the judge's reply held no score between 0 and 1: " + quoted(text), 1, tokens, cost);
    }
  }

  private static String instructions(String rubric) {
    return "You judge an AI agent's answer. Compare the candidate answer with the reference answer to the same"
        + " question, by this rubric:\n" + rubric + "\nReply with one JSON object and nothing else:"
        + " {\"score\": <a number from 0 (fails the rubric) to 1 (fully meets it)>, \"reasoning\": \"<why, briefly>\"}";
  }

  private static String quoted(String text) {
    String one = text.strip();
    return "'" + (one.length() > QUOTED_CHARS ? one.substring(0, QUOTED_CHARS) + "…" : one) + "'";
  }

  private static String rootMessage(Throwable failure) {
    Throwable cause = failure;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause.getMessage() == null ? cause.getClass().getSimpleName() : cause.getMessage();
  }

  /**
   * What the judge said: a score against the threshold with its reasoning, or why it could not judge; and what its
   * calls cost.
   *
   * @param score {@code null} when it could not judge
   * @param cost by the price table, {@code null} without a price for its model
   */
  record JudgeScore(Double score, double threshold, String reasoning, String error, int calls, long tokens,
      BigDecimal cost) {

    static JudgeScore failed(String error, int calls, long tokens, BigDecimal cost) {
      return new JudgeScore(null, 0, null, error, calls, tokens, cost);
    }

    boolean passed() {
      return score != null && score >= threshold;
    }
  }
}
