package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.ReactAgentProcess;

/**
 * A child run that was started again after a person edited one of its steps has ended: its answer (or outcome) is to
 * replace the caller's observation of the call the child answered before. Published when the run ends, in its
 * transaction; acted on after that transaction commits.
 *
 * @param callerRun the run whose call the child answers
 * @param observationStep the caller's observation of that call, on its active path when the child was re-opened
 * @param childRun the run that ended
 */
public record ChildRunEnded(String callerRun, int observationStep, String childRun) {

  /** Reads {@link ReactAgentProcess#REANSWERS}: {@code <caller run>/<observation step>}. */
  public static ChildRunEnded of(String reanswers, String childRun) {
    int slash = reanswers.lastIndexOf('/');
    return new ChildRunEnded(reanswers.substring(0, slash), Integer.parseInt(reanswers.substring(slash + 1)),
        childRun);
  }

  /** The value of {@link ReactAgentProcess#REANSWERS} for a child that answers this caller's observation. */
  public static String reanswers(String callerRun, int observationStep) {
    return callerRun + "/" + observationStep;
  }
}
