package dev.agentloop.internal.evaluation;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * What to evaluate: an agent's candidate, on which recorded runs and data-set cases, with which choices and judge,
 * and why. Immutable.
 *
 * @param runs ids of finished runs of the agent, each a case; duplicates count once
 * @param recent how many of the agent's newest finished runs to add as cases (0: none)
 * @param judge {@code null}: no judge
 */
public record EvaluationRequest(String agentKey, CandidateSource candidate, List<String> runs, int recent,
    List<DataSetCase> cases, ReplayChoices replay, JudgeSpec judge, String reason) {

  public static final int MAX_REASON_CHARS = 2000;

  public EvaluationRequest {
    Objects.requireNonNull(agentKey, "agentKey");
    Objects.requireNonNull(candidate, "candidate");
    runs = runs == null ? List.of() : List.copyOf(new LinkedHashSet<>(runs));
    cases = cases == null ? List.of() : List.copyOf(cases);
    replay = replay == null ? ReplayChoices.DEFAULTS : replay;
    if (recent < 0) {
      throw new IllegalArgumentException("recent counts the agent's newest finished runs, from 0; was " + recent);
    }
    if (runs.isEmpty() && recent == 0 && cases.isEmpty()) {
      throw new IllegalArgumentException("an evaluation needs cases: recorded runs (runs, or the newest of them by"
          + " recent) or a data set (cases)");
    }
    if (runs.stream().anyMatch(run -> run == null || run.isBlank() || run.length() > 64)) {
      throw new IllegalArgumentException("runs holds something that is no run id");
    }
    if (reason != null && reason.length() > MAX_REASON_CHARS) {
      throw new IllegalArgumentException("reason may have at most " + MAX_REASON_CHARS + " characters, had "
          + reason.length());
    }
  }

  /** The same request with these recorded runs in place of {@link #runs} and {@link #recent}. */
  EvaluationRequest withRuns(List<String> chosen) {
    return new EvaluationRequest(agentKey, candidate, chosen, 0, cases, replay, judge, reason);
  }

  /**
   * The candidate: a diagram (BPMN XML, as Modeler saves it) or a version of the agent already deployed.
   *
   * @param version {@code null} where a diagram is given
   */
  public record CandidateSource(String diagram, Integer version) {

    public static final int MAX_DIAGRAM_CHARS = 2_000_000;

    public CandidateSource {
      if ((diagram == null) == (version == null)) {
        throw new IllegalArgumentException("give the candidate as a diagram (the BPMN XML) or as a version of the agent"
            + " already deployed, one of the two");
      }
      if (diagram != null && diagram.isBlank()) {
        throw new IllegalArgumentException("diagram is empty; give the BPMN XML of the candidate");
      }
      if (diagram != null && diagram.length() > MAX_DIAGRAM_CHARS) {
        throw new IllegalArgumentException("diagram may have at most " + MAX_DIAGRAM_CHARS + " characters, had "
            + diagram.length());
      }
      if (version != null && version < 1) {
        throw new IllegalArgumentException("version counts from 1, was " + version);
      }
    }
  }
}
