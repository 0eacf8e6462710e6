package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.JobEntity;
import org.camunda.bpm.engine.impl.persistence.entity.TimerEntity;

/**
 * {@code askHuman}: the questions the model asked with {@code ask_human} ({@code question1} …),
 * each with an answer field ({@code answer1} …), and the steps that led to the questions ({@code steps}),
 * so that whoever answers knows why the agent asks. The task is due when the agent stops waiting for an
 * answer (its timer, {@code askHumanTimeout}). The answers become the call's observation, authored by the
 * person who gave them.
 */
class AskHumanReview implements Review {

  private final CallsForPeople calls;

  AskHumanReview(CallsForPeople calls) {
    this.calls = calls;
  }

  @Override
  public void prepare(ReviewTask task, RunState run) {
    task.delegate().setDueDate(dueDate(task));
    task.putShown("steps", PathText.whole(run.activePath()), true);
    List<String> questions = questions(run);
    for (int i = 1; i <= questions.size(); i++) {
      task.put("question" + i, questions.get(i - 1));
      task.put("answer" + i, "");
    }
  }

  @Override
  public Decided decide(ReviewTask task, RunState run) {
    StringBuilder answers = new StringBuilder();
    boolean answered = false;
    List<String> questions = questions(run);
    for (int i = 1; i <= questions.size(); i++) {
      String answer = task.text("answer" + i);
      answered |= !answer.isEmpty();
      answers.append("Q: ").append(questions.get(i - 1)).append("\nA: ")
          .append(answer.isEmpty() ? "(no answer)" : answer).append('\n');
    }
    if (!answered) {
      throw new ReviewException("answer at least one of the questions");
    }
    calls.write(run,
        Steps.observation(Observation.result(question(run), answers.toString().strip()), task.actor()));
    return null;
  }

  /**
   * When the timer on the task fires, which the engine created as the task's activity started; none where
   * a diagram has no timer there, since then nothing ends the wait.
   */
  private static Date dueDate(ReviewTask task) {
    List<JobEntity> jobs = ((ExecutionEntity) task.delegate().getExecution()).getJobs();
    return jobs.stream().filter(TimerEntity.class::isInstance).map(JobEntity::getDuedate).filter(Objects::nonNull)
        .min(Comparator.naturalOrder()).orElse(null);
  }

  /** The tool's schema allows at most {@link AskHumanTool#MAX_QUESTIONS}, the form's number of answer fields. */
  private List<String> questions(RunState run) {
    List<String> questions = new ArrayList<>();
    question(run).arguments().path("questions").forEach(question -> questions.add(question.asText()));
    return questions;
  }

  private Action question(RunState run) {
    return calls.single(run, AskHumanTool.NAME);
  }
}
