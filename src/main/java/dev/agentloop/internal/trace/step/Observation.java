package dev.agentloop.internal.trace.step;

import java.util.Locale;

/**
 * An OBSERVATION step: what came back for a tool call (callId set), or a note that the model's whole
 * reply could not be used (callId {@code null}). Exactly one of result and error is set.
 *
 * @param failure for an error: what kind of failure, e.g. {@code unavailable} (the tool's circuit
 *     breaker is open), {@code timed_out}, {@code failed}, {@code not_run}; {@code null} when not known
 * @param worker the id of the remote worker that ran the tool, or {@code null} when it ran here
 * @param childRun for a call of another agent: the id of the run that answered it (the child run), else {@code null}
 */
public record Observation(String callId, String tool, String result, String error, String failure, String worker,
    String childRun) implements StepContent {

  /** A call that was not run because the run left its loop (escape, stop, time-out). */
  public static final String NOT_RUN = "not_run";
  /** A call of a tool the model was not offered that turn (its final-answer turn), refused unrun. */
  public static final String NOT_OFFERED = "not_offered";
  /** A call refused because the tool's circuit breaker is open. */
  public static final String UNAVAILABLE = "unavailable";

  public Observation(String callId, String tool, String result, String error) {
    this(callId, tool, result, error, null, null);
  }

  public Observation(String callId, String tool, String result, String error, String failure, String worker) {
    this(callId, tool, result, error, failure, worker, null);
  }

  public static Observation result(Action action, String result) {
    return new Observation(action.callId(), action.tool(), result, null);
  }

  public static Observation error(Action action, String error) {
    return new Observation(action.callId(), action.tool(), null, error);
  }

  /** @param failure a kind of failure such as {@link #UNAVAILABLE}, or an enum whose name is one */
  public static Observation error(Action action, String error, Object failure) {
    return new Observation(action.callId(), action.tool(), null, error,
        failure == null ? null : failure.toString().toLowerCase(Locale.ROOT), null);
  }

  public static Observation replyError(String error) {
    return new Observation(null, null, null, error);
  }


  @Override
  public StepKind kind() {
    return StepKind.OBSERVATION;
  }

  /** This observation, made by the remote worker with this id. */
  public Observation byWorker(String workerId) {
    return new Observation(callId, tool, result, error, failure, workerId, childRun);
  }

  /** This observation, the outcome of the child run with this id (a call of another agent). */
  public Observation ofChildRun(String childRunId) {
    return new Observation(callId, tool, result, error, failure, worker, childRunId);
  }

  public boolean isError() {
    return error != null;
  }

  /** Whether it observes a tool call, rather than a reply the model got wrong as a whole. */
  public boolean ofCall() {
    return callId != null;
  }

  /** The text the model reads. */
  public String text() {
    return isError() ? "ERROR: " + error : result;
  }
}
