package dev.agentloop.internal.review;

import dev.agentloop.internal.trace.RunState;

/**
 * One kind of review: fills its task's form data and turns what a person submitted into a decision. Both
 * take the run as {@link Reviews} read it once for the task's event, and read the step store no further.
 */
interface Review {

  /** Called when the task is created: sets the task-local variables its form binds to. */
  void prepare(ReviewTask task, RunState run);

  /**
   * Called when the task completes: checks the submission, writes the steps it stands for, and
   * returns the decision, which goes to the gateway after the task and into the trace, or
   * {@code null} when the submission writes steps of its own and no gateway follows.
   *
   * @throws ReviewException when the submission cannot be used; nothing is written
   */
  Decided decide(ReviewTask task, RunState run);
}
