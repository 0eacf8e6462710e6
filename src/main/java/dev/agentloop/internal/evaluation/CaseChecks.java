package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Checks a case and gives its verdict. A recorded run's case: the same outcome, each answer field the same, and the
 * judge's score where there is a judge. A data-set case: each of its expectations, and the judge where the case gives
 * a reference answer. A case whose candidate run did not finish as a run should has failed; one whose checks all pass
 * is {@link Verdict#SAME} unless its answer's words differ from the recorded ones or its replay was marked
 * ({@link Verdict#CHANGED}). Thread-safe.
 */
class CaseChecks {

  /** Numbers equal as numbers ({@code 1} = {@code 1.0}), everything else as JSON. */
  private static final Comparator<JsonNode> SAME_VALUE = (a, b) -> a.isNumber() && b.isNumber()
      ? a.decimalValue().compareTo(b.decimalValue()) : a.equals(b) ? 0 : 1;

  private final Judge judge;

  CaseChecks(Judge judge) {
    this.judge = judge;
  }

  /**
   * What the case is checked on.
   *
   * @param recorded {@code null} for a data-set case
   * @param expect the data-set case's expectations, {@link Expectations#NONE} for a recorded run
   * @param candidate {@code null} where the candidate's run never started
   * @param error why the candidate's run did not finish as a run should, or {@code null}
   */
  record Input(String question, CaseSide recorded, Expectations expect, CaseSide candidate, List<String> marks,
      String error, JudgeSpec judge) {}

  /** The case's result and verdict. */
  record Outcome(CaseResult result, Verdict verdict) {}

  CompletionStage<Outcome> check(Input in) {
    if (in.candidate() == null || in.error() != null) {
      return CompletableFuture.completedFuture(new Outcome(new CaseResult(in.recorded(), in.candidate(), List.of(),
          in.marks(), in.error(), null), Verdict.FAILED));
    }
    List<Check> checks = in.recorded() != null ? againstRecord(in.recorded(), in.candidate())
        : expectations(in.expect(), in.candidate());
    String reference = in.recorded() != null ? in.recorded().answer() : in.expect().answer();
    if (in.judge() == null || reference == null) {
      return CompletableFuture.completedFuture(outcome(in, checks, null));
    }
    if (in.candidate().answer() == null) {
      checks.add(Check.of("judge", false, "the candidate gave no answer to judge"));
      return CompletableFuture.completedFuture(outcome(in, checks, null));
    }
    return judge.score(in.judge(), in.candidate().runId(), in.question(), reference, in.candidate().answer())
        .thenApply(score -> {
          checks.add(score.error() != null ? Check.of("judge", false, score.error())
              : new Check("judge", score.passed(), String.format(Locale.ROOT, "score %.2f, %s %.2f", score.score(),
                  score.passed() ? "at least" : "below", score.threshold()), score.score(), score.reasoning()));
          return outcome(in, checks, new CaseResult.JudgeUse(score.calls(), score.tokens(), score.cost()));
        });
  }

  private static Outcome outcome(Input in, List<Check> checks, CaseResult.JudgeUse judged) {
    CaseResult result = new CaseResult(in.recorded(), in.candidate(), checks, in.marks(), null, judged);
    if (checks.stream().anyMatch(check -> !check.passed())) {
      return new Outcome(result, Verdict.FAILED);
    }
    boolean differs = !in.marks().isEmpty()
        || in.recorded() != null && !words(in.recorded().answer()).equals(words(in.candidate().answer()));
    return new Outcome(result, differs ? Verdict.CHANGED : Verdict.SAME);
  }

  private static List<Check> againstRecord(CaseSide recorded, CaseSide candidate) {
    List<Check> checks = new ArrayList<>();
    checks.add(Check.of("outcome", recorded.outcome().equals(candidate.outcome()),
        "recorded " + recorded.outcome() + ", candidate " + candidate.outcome()));
    if (recorded.answerData() != null || candidate.answerData() != null) {
      TreeSet<String> names = new TreeSet<>();
      fieldsOf(recorded.answerData()).forEachRemaining(names::add);
      fieldsOf(candidate.answerData()).forEachRemaining(names::add);
      for (String name : names) {
        JsonNode was = field(recorded.answerData(), name);
        JsonNode is = field(candidate.answerData(), name);
        checks.add(Check.of("field " + name, same(was, is), "recorded " + shown(was) + ", candidate " + shown(is)));
      }
    }
    return checks;
  }

  private static List<Check> expectations(Expectations expect, CaseSide candidate) {
    List<Check> checks = new ArrayList<>();
    String answer = Objects.requireNonNullElse(candidate.answer(), "");
    if (expect.outcome() != null) {
      checks.add(Check.of("outcome", expect.outcome().name().equals(candidate.outcome()),
          "expected " + expect.outcome() + ", candidate " + candidate.outcome()));
    }
    for (String text : expect.contains()) {
      checks.add(Check.of("contains", answer.toLowerCase(Locale.ROOT).contains(text.toLowerCase(Locale.ROOT)),
          "the answer contains '" + text + "' (any case)"));
    }
    for (String regex : expect.matches()) {
      checks.add(Check.of("matches", Expectations.compile(regex).matcher(answer).find(),
          "the answer matches /" + regex + "/"));
    }
    expect.fields().forEach((name, value) -> {
      JsonNode is = field(candidate.answerData(), name);
      checks.add(Check.of("field " + name, same(value, is), "expected " + shown(value) + ", candidate " + shown(is)));
    });
    return checks;
  }

  private static boolean same(JsonNode a, JsonNode b) {
    return a == null ? b == null : b != null && a.equals(SAME_VALUE, b);
  }

  private static java.util.Iterator<String> fieldsOf(JsonNode data) {
    return data == null || !data.isObject() ? java.util.Collections.emptyIterator() : data.fieldNames();
  }

  private static JsonNode field(JsonNode data, String name) {
    return data == null || !data.has(name) ? null : data.get(name);
  }

  private static String shown(JsonNode value) {
    return value == null ? "(none)" : value.toString();
  }

  /** The words of an answer, whitespace and case aside. */
  private static String words(String answer) {
    return answer == null ? "" : answer.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
  }
}
