package dev.agentloop.review;

/** One kind of review: fills its task's form data and turns what a person submitted into a decision. */
interface Review {

  /** Called when the task is created: sets the task-local variables its form binds to. */
  void prepare(ReviewTask task);

  /**
   * Called when the task completes: checks the submission, writes the steps it stands for, and
   * returns the decision for the gateway after the task (its name in lower case is the value the
   * diagram's gateway compares, e.g. {@code ${decision == 'revise'}}), or {@code null} when there is none.
   *
   * @throws ReviewException when the submission cannot be used; nothing is written
   */
  Enum<?> decide(ReviewTask task);
}
