package dev.agentloop.review;

import dev.agentloop.agent.Steps;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.Step;
import dev.agentloop.trace.StepKind;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import java.util.List;

/**
 * {@code reviewAnswer}: accept the final answer, regenerate it (a new attempt from the state before
 * it; the earlier answer stays stored, superseded), or give feedback the agent continues with.
 */
class AnswerReview implements Review {

  static final List<String> DECISIONS = List.of("accept", "regenerate", "feedback");

  private final StepStore store;

  AnswerReview(StepStore store) {
    this.store = store;
  }

  @Override
  public void prepare(ReviewTask task) {
    task.put("answer", latestAnswer(task).text("text"));
    task.put("decision", "accept");
    task.put("feedback", "");
  }

  @Override
  public String decide(ReviewTask task) {
    String decision = task.decision(DECISIONS);
    RunRecord run = store.run(task.runId());
    switch (decision) {
      case "regenerate" -> store.rewind(run.head(), latestAnswer(task).parentNo());
      case "feedback" -> {
        if (task.text("feedback").isEmpty()) {
          throw new ReviewException("write the feedback the agent should continue with");
        }
        store.append(run.head(), List.of(Steps.humanInput(task.text("feedback"), task.actor(), "answer feedback")),
            Usage.NONE);
      }
      default -> { }
    }
    return decision;
  }

  private Step latestAnswer(ReviewTask task) {
    return store.latestActive(task.runId(), StepKind.FINAL_ANSWER)
        .orElseThrow(() -> new IllegalStateException("run " + task.runId() + " has no answer to review"));
  }
}
