package dev.agentloop.internal.llm.scripted;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A script for the {@link ScriptedChatModel}, read from JSON. Example:
 *
 * <pre>{@code
 * {
 *   "latencyMillis": 0,
 *   "scenarios": [{
 *     "name": "leap-year-sum",
 *     "question": "(?i)17 \\* 23",                  // regex, found anywhere in the question
 *     "plan": ["Compute 17 * 23", "Add the days of a leap year"],
 *     "rules": [{"lastObservation": "(?i)cannot evaluate", "reply": {...}}],
 *     "turns": [
 *       {"thought": "First 17 * 23.", "toolCalls": [{"tool": "calculator", "arguments": {"expression": "17 * 23"}}]},
 *       {"finalAnswer": "757"}
 *     ]
 *   }],
 *   "fallback": {"finalAnswer": "I have no script for this question."}
 * }
 * }</pre>
 *
 * <p>The first scenario whose {@code question} pattern matches is used (no pattern matches every
 * question). For turn n of a run, the first rule whose conditions all hold answers; otherwise
 * {@code turns[n-1]}; otherwise the script's {@code fallback}. Turns are counted on the active path,
 * so after an edit the script continues from the edited step.
 */
public record Script(String description, long latencyMillis, List<Scenario> scenarios, Reply fallback) {

  public Script {
    scenarios = scenarios == null ? List.of() : List.copyOf(scenarios);
    if (fallback == null) {
      fallback = Reply.answer("The scripted model has no script for this question. Configure a real model"
          + " (AGENTLOOP_LLM_PROVIDER=openai) or add a scenario to the script.");
    }
  }

  Scenario scenarioFor(String question) {
    return scenarios.stream().filter(s -> s.matches(question)).findFirst()
        .orElse(new Scenario("fallback", null, null, List.of(), List.of()));
  }

  /** Questions are matched by a regular expression; no pattern means any question. */
  public record Scenario(String name, String question, List<String> plan, List<Rule> rules, List<Reply> turns) {

    public Scenario {
      rules = rules == null ? List.of() : List.copyOf(rules);
      turns = turns == null ? List.of() : List.copyOf(turns);
      if (question != null) {
        Pattern.compile(question);
      }
    }

    boolean matches(String text) {
      return question == null || Pattern.compile(question).matcher(text).find();
    }
  }

  /** A reply used when all its conditions hold; absent conditions always hold. */
  public record Rule(Integer turn, Integer turnAtLeast, Integer turnAtMost, String lastObservation, Reply reply) {

    public Rule {
      Objects.requireNonNull(reply, "a rule needs a reply");
    }

    boolean applies(int currentTurn, String lastToolResult) {
      return (turn == null || turn == currentTurn)
          && (turnAtLeast == null || currentTurn >= turnAtLeast)
          && (turnAtMost == null || currentTurn <= turnAtMost)
          && (lastObservation == null || Pattern.compile(lastObservation).matcher(lastToolResult).find());
    }
  }

  /**
   * One model reply. {@code finalAnswers} gives a different answer per attempt (regenerate);
   * {@code reasoning} is what a reasoning model thought before replying (kept apart from the text);
   * {@code fail} injects a failure: {@code http-429}, {@code http-500}, {@code http-400},
   * {@code timeout}, or {@code hang} (never answers); {@code empty} answers with nothing at all.
   * {@code tokens} is the total the "provider" reports, {@code promptTokens} and {@code completionTokens}
   * its parts; a reply with none of them reports no usage, as some endpoints do; {@code cacheReadTokens} and
   * {@code cacheWriteTokens} say how many of the prompt tokens a prompt cache served or stored. {@code stopReason} is
   * why the "provider" stopped: {@code length} or {@code max_tokens} makes the reply one cut at its output
   * limit (to try what a run does then), {@code content_filter} or {@code refusal} one the provider withheld,
   * {@code pause_turn} one it paused; none: the scripted model reports no stop reason. {@code answer} is the final
   * answer as fields, a JSON object the scripted model answers with (as its JSON text) where the agent has an answer
   * schema, placeholders filled in its strings; without a schema it answers {@code finalAnswer} as always.
   */
  public record Reply(
      String thought,
      List<ScriptedCall> toolCalls,
      String finalAnswer,
      List<String> finalAnswers,
      boolean empty,
      String fail,
      Long latencyMillis,
      Long tokens,
      String reasoning,
      Long promptTokens,
      Long completionTokens,
      String stopReason,
      Long cacheReadTokens,
      Long cacheWriteTokens,
      JsonNode answer) {

    private static final Set<String> FAILURES = Set.of("http-429", "http-500", "http-400", "timeout", "hang");

    public Reply {
      if (fail != null && !FAILURES.contains(fail)) {
        throw new IllegalArgumentException("unknown failure '" + fail + "'; use one of " + FAILURES);
      }
      toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
      finalAnswers = finalAnswers == null ? List.of() : List.copyOf(finalAnswers);
      if (answer != null && !answer.isObject()) {
        throw new IllegalArgumentException("a scripted answer is a JSON object of fields, was " + answer);
      }
    }

    static Reply answer(String text) {
      return new Reply(null, null, text, null, false, null, null, null, null, null, null, null, null, null, null);
    }
  }

  /** A scripted tool call; {@code rawArguments}, when given, is sent instead of {@code arguments}. */
  public record ScriptedCall(String tool, JsonNode arguments, String rawArguments) {}
}
