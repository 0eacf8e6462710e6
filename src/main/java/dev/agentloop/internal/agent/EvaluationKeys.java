package dev.agentloop.internal.agent;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The process keys an evaluation deploys its candidate diagrams under: {@value #PREFIX} and the evaluation's id. A
 * candidate is never deployed under its agent's own key, because Camunda starts every new run of a key on the key's
 * newest version: under a key of its own it can run beside the live agent without ever becoming the version people's
 * runs start on. Nobody starts such a key but its evaluation, no group gets rights on it, it is no tool of any agent and
 * no agent of any list, and every run of it has its tool calls replayed ({@code CallReplay}). Thread-safe (no state).
 */
public final class EvaluationKeys {

  /** What every candidate's key starts with; reserved: no other diagram may use it. */
  public static final String PREFIX = "agentloop-candidate-";
  /** What an evaluation id is: letters, digits and dashes, as {@link java.util.UUID} writes them. */
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9-]{1,64}");

  private EvaluationKeys() {}

  /** Whether runs of this key are an evaluation's candidate runs. */
  public static boolean isCandidate(String processKey) {
    return processKey != null && processKey.startsWith(PREFIX);
  }

  /** The key the candidate of this evaluation is deployed under. */
  public static String of(String evaluationId) {
    Objects.requireNonNull(evaluationId, "evaluationId");
    if (!ID.matcher(evaluationId).matches()) {
      throw new IllegalArgumentException("an evaluation id is letters, digits and dashes, was '" + evaluationId + "'");
    }
    return PREFIX + evaluationId;
  }
}
