package dev.agentloop.review;

/** One kind of review: fills its task's form data and turns what a person submitted into a decision. */
interface Review {

  /** Called when the task is created: sets the task-local variables its form binds to. */
  void prepare(ReviewTask task);

  /**
   * Called when the task completes: checks the submission, writes the steps it stands for, and
   * returns the decision, which goes to the gateway after the task and into the trace, or
   * {@code null} when the submission writes steps of its own and no gateway follows.
   *
   * @throws ReviewException when the submission cannot be used; nothing is written
   */
  Decided decide(ReviewTask task);
}
