package dev.agentloop.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.StreamSupport;

/**
 * What a finished run of the test scenario ({@code scripts/cluster-script.json}: plan, two
 * calculator turns, answer) must look like after any crash: answered once, every step there once,
 * in one unbroken chain, and the usage counted once. Each broken rule is one line of the result, so
 * a failing test names every bad run at once.
 */
public final class TraceCheck {

  public static final List<String> KINDS = List.of("PLAN", "THOUGHT", "ACTION", "OBSERVATION", "THOUGHT", "ACTION",
      "OBSERVATION", "FINAL_ANSWER");
  private static final int MODEL_CALLS = 4;
  private static final int TOOL_CALLS = 2;

  private TraceCheck() {}

  /**
   * @param run the run as {@code GET /api/runs/{id}} shows it
   * @param steps every step ever written for it ({@code ?branches=all})
   */
  public static List<String> problems(String runId, JsonNode run, JsonNode steps) {
    List<String> problems = new ArrayList<>();
    List<JsonNode> all = StreamSupport.stream(steps.spliterator(), false).toList();
    List<String> kinds = all.stream().map(step -> step.get("kind").asText()).toList();
    check(problems, run.get("status").asText().equals("ANSWERED"), "status is " + run.get("status").asText());
    check(problems, "757".equals(run.path("finalAnswer").asText(null)), "final answer is " + run.path("finalAnswer"));
    check(problems, kinds.equals(KINDS), "kinds are " + kinds);
    check(problems, kinds.stream().filter("FINAL_ANSWER"::equals).count() == 1, "not exactly one final answer");
    check(problems, count(kinds, "OBSERVATION") == count(kinds, "ACTION"), "observations do not match actions");
    for (int i = 0; i < all.size(); i++) {
      JsonNode step = all.get(i);
      Integer parent = step.get("parent").isNull() ? null : step.get("parent").asInt();
      check(problems, step.get("id").asInt() == i + 1, "step " + (i + 1) + " has id " + step.get("id"));
      check(problems, Objects.equals(parent, i == 0 ? null : i), "step " + (i + 1) + " has parent " + parent);
      check(problems, step.get("status").asText().equals("ACTIVE"), "step " + (i + 1) + " is " + step.get("status"));
    }
    check(problems, run.get("steps").asInt() == all.size(), "run counts " + run.get("steps") + " steps");
    check(problems, run.get("modelCalls").asInt() == MODEL_CALLS, "run counts " + run.get("modelCalls") + " model calls");
    check(problems, run.get("toolCalls").asInt() == TOOL_CALLS, "run counts " + run.get("toolCalls") + " tool calls");
    return problems.stream().map(problem -> runId + ": " + problem).toList();
  }

  /** Checks runs through a node's API, each against {@link #problems}. */
  public static List<String> problems(NodeApi api, List<String> runIds) {
    return runIds.parallelStream().flatMap(id -> problems(id, api.run(id), api.trace(id)).stream()).toList();
  }

  private static long count(List<String> kinds, String kind) {
    return kinds.stream().filter(kind::equals).count();
  }

  private static void check(List<String> problems, boolean holds, String problem) {
    if (!holds) {
      problems.add(problem);
    }
  }
}
