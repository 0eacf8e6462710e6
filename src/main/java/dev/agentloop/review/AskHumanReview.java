package dev.agentloop.review;

import dev.agentloop.agent.Steps;
import dev.agentloop.tool.builtin.AskHumanTool;
import dev.agentloop.trace.Action;
import dev.agentloop.trace.Observation;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code askHuman}: the questions the model asked with {@code ask_human} ({@code question1} …),
 * each with an answer field ({@code answer1} …). The answers become the call's observation,
 * authored by the person who gave them.
 */
class AskHumanReview implements Review {

  private final PendingCalls calls;

  AskHumanReview(PendingCalls calls) {
    this.calls = calls;
  }

  @Override
  public void prepare(ReviewTask task) {
    List<String> questions = questions(task);
    for (int i = 1; i <= questions.size(); i++) {
      task.put("question" + i, questions.get(i - 1));
      task.put("answer" + i, "");
    }
  }

  @Override
  public Decided decide(ReviewTask task) {
    StringBuilder answers = new StringBuilder();
    boolean answered = false;
    List<String> questions = questions(task);
    for (int i = 1; i <= questions.size(); i++) {
      String answer = task.text("answer" + i);
      answered |= !answer.isEmpty();
      answers.append("Q: ").append(questions.get(i - 1)).append("\nA: ")
          .append(answer.isEmpty() ? "(no answer)" : answer).append('\n');
    }
    if (!answered) {
      throw new ReviewException("answer at least one of the questions");
    }
    calls.write(task.runId(),
        Steps.observation(Observation.result(question(task), answers.toString().strip()), task.actor()));
    return null;
  }

  /** The tool's schema allows at most {@link AskHumanTool#MAX_QUESTIONS}, the form's number of answer fields. */
  private List<String> questions(ReviewTask task) {
    List<String> questions = new ArrayList<>();
    question(task).arguments().path("questions").forEach(question -> questions.add(question.asText()));
    return questions;
  }

  private Action question(ReviewTask task) {
    return calls.single(task.runId(), AskHumanTool.NAME);
  }
}
