package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.List;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.delegate.DelegateExecution;

/**
 * {@code reviewAnswer}: accept the final answer (and, in a conversation, ask the next question with
 * it: {@code follow_up} with {@code followUpQuestion}), regenerate it (a new attempt from the state before
 * it; the earlier answer stays stored, superseded) or an earlier turn's answer ({@link FormTurnRedo}), give feedback the agent continues with, or edit
 * a step of the path that led to it ({@link FormStepEdit}). The form shows the steps that led to the
 * answer whole ({@code steps}), which attempt this answer is ({@code attempt}) and the earlier ones
 * ({@code earlierAnswers}) within the current turn, and the conversation's earlier turns ({@code earlierTurns}).
 * The edit is the same trace surgery as the resume API's; the diagram's gateway {@code resumeAt}
 * takes the run to {@code think}, {@code act} or {@code approveAction}.
 */
class AnswerReview implements Review {

  /** What the reviewer decided; the gateway after the review takes it. */
  enum Decision { ACCEPT, FOLLOW_UP, REGENERATE, FEEDBACK, EDIT }

  /** A follow-up question may be as long as a run's first question (POST /api/runs). */
  static final int QUESTION_CHARS = 20_000;

  private final StepStore store;
  private final FormStepEdit stepEdit;
  private final AgentDefinitions definitions;
  private final FormTurnRedo turnRedo;

  AnswerReview(StepStore store, FormStepEdit stepEdit, AgentDefinitions definitions, FormTurnRedo turnRedo) {
    this.store = store;
    this.stepEdit = stepEdit;
    this.definitions = definitions;
    this.turnRedo = turnRedo;
  }

  @Override
  public void prepare(ReviewTask task, RunState run) {
    Step answer = latestAnswer(run);
    task.putShown("answer", text(answer), false);
    // no decision chosen in advance: the reviewer chooses one, the form refuses Complete until then
    task.put("decision", null);
    task.put("regenerateReason", "");
    task.put("feedback", "");
    task.put("followUpQuestion", "");
    List<Step> path = run.activePath();
    Step turnStart = run.latestFollowUp().orElse(null);
    task.putShown("earlierTurns", earlierTurns(run, turnStart), true);
    task.putShown("steps", PathText.whole(path.subList(0, path.size() - 1)), true);
    // attempts count per turn: the answers to the turn's question, those before a redo of an earlier turn among them
    List<TurnAnswers.Earlier> earlier = TurnAnswers.earlier(run.steps(), answer, turnStart);
    task.put("attempt", earlier.size() + 1);
    task.putShown("earlierAnswers", earlier.stream()
        .map(one -> "Answer " + (earlier.indexOf(one) + 1) + " (#" + one.answer().stepNo()
            + (one.beforeRedo() ? ", " + TurnAnswers.BEFORE_REDO : "") + "):\n" + text(one.answer()))
        .collect(Collectors.joining("\n\n")), true);
    stepEdit.prepare(task, run);
    turnRedo.prepare(task, run);
  }

  @Override
  public Decided decide(ReviewTask task, RunState run) {
    Decision decision = task.decision(Decision.class);
    Step answer = latestAnswer(run);
    Step decidedOn = answer;
    switch (decision) {
      case REGENERATE -> {
        // this answer, or the earlier turn's the reviewer chose
        Step earlier = turnRedo.apply(task, run);
        if (earlier == null) {
          store.rewind(run.head(), run.step(answer.parentNo()).orElseThrow());
        } else {
          decidedOn = earlier;
        }
      }
      case FEEDBACK -> {
        if (task.text("feedback").isEmpty()) {
          throw new ReviewException("write the feedback the agent should continue with");
        }
        store.append(run.head(), List.of(Steps.humanInput(task.text("feedback"), task.actor(), "answer feedback")),
            Usage.NONE);
      }
      case EDIT -> stepEdit.apply(task, run, "edited in answer review");
      case FOLLOW_UP -> askFollowUp(task, run);
      case ACCEPT -> { }
    }
    return new Decided(decision, decidedOn.stepNo(), switch (decision) {
      case EDIT -> task.text("editReason");
      // API clients said why in the feedback before the form had a field of its own for it
      case REGENERATE -> task.text("regenerateReason").isEmpty() ? task.text("feedback") : task.text("regenerateReason");
      default -> task.text("feedback");
    });
  }

  /** Accepts the answer and asks the next question with it: the conversation goes on at once. */
  private void askFollowUp(ReviewTask task, RunState run) {
    String question = task.text("followUpQuestion");
    if (question.isEmpty()) {
      throw new ReviewException("write the follow-up question to ask after this answer");
    }
    if (question.length() > QUESTION_CHARS) {
      throw new ReviewException("the follow-up question is " + question.length() + " characters long; at most "
          + QUESTION_CHARS + " are taken");
    }
    if (!definitions.settings(task.processDefinitionId()).conversation().enabled()) {
      throw new ReviewException("this agent answers one question per run (conversation=false): accept the answer"
          + " and start a new run with the next question");
    }
    store.append(run.head(), List.of(Steps.followUp(question, task.actor(), null)), Usage.NONE);
    DelegateExecution execution = task.delegate().getExecution();
    ReactAgentProcess.QUESTION.set(execution, question);
    execution.setVariables(ReactAgentProcess.FOLLOW_UP.transientWith(ReactAgentProcess.FOLLOW_UP_ASKED));
  }

  /** The turns before the current one, each question with its answer, oldest first; empty in a first turn. */
  private static String earlierTurns(RunState run, Step turnStart) {
    if (turnStart == null) {
      return "";
    }
    List<Step> before = run.questionsAndAnswers(true).stream().filter(step -> step.stepNo() < turnStart.stepNo())
        .toList();
    StringBuilder text = new StringBuilder("Question 1: ").append(run.run().question());
    int turn = 1;
    for (Step step : before) {
      if (step.content() instanceof FollowUp question) {
        text.append("\n\nQuestion ").append(++turn).append(" (").append(step.author()).append("): ")
            .append(question.text());
      } else {
        text.append("\nAnswer: ").append(text(step));
      }
    }
    return text.toString();
  }

  private static String text(Step answer) {
    return ((FinalAnswer) answer.content()).text();
  }

  private static Step latestAnswer(RunState run) {
    return run.latestActive(StepKind.FINAL_ANSWER)
        .orElseThrow(() -> new IllegalStateException("run " + run.runId() + " has no answer to review"));
  }
}
