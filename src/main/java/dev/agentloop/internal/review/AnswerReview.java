package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AnswerSettings;
import dev.agentloop.internal.agent.definition.AnswerVariables;
import dev.agentloop.internal.trace.Appended;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.resume.InFlowChanges;
import dev.agentloop.internal.trace.step.FinalAnswer;
import java.util.List;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.delegate.DelegateExecution;

/**
 * {@code reviewAnswer}: accept the final answer (and, in a conversation, ask the next question with
 * it: {@code follow_up} with {@code followUpQuestion}), regenerate it (a new attempt from the state before
 * it; the earlier answer stays stored, superseded) or an earlier turn's answer ({@link FormTurnRedo}), give feedback the agent continues with, or edit
 * a step of the path that led to it ({@link FormStepEdit}). The form shows the steps that led to the
 * answer whole ({@code steps}), which attempt this answer is ({@code attempt}) and the earlier ones
 * ({@code earlierAnswers}) within the current turn; the conversation so far comes with every review
 * ({@link ConversationSoFar}), the decisions it offers from {@link AnswerDecisions}.
 * The edit is the same trace surgery as the resume API's; the diagram's gateway {@code resumeAt}
 * takes the run to {@code think}, {@code act} or {@code approveAction}.
 */
class AnswerReview implements Review {

  /** What the reviewer decided; the gateway after the review takes it. */
  enum Decision { ACCEPT, FOLLOW_UP, REGENERATE, FEEDBACK, EDIT }

  /** A follow-up question may be as long as a run's first question (POST /api/runs). */
  static final int QUESTION_CHARS = 20_000;

  private final Supplier<InFlowChanges> changes;
  private final FormStepEdit stepEdit;
  private final AgentDefinitions definitions;
  private final FormTurnRedo turnRedo;

  AnswerReview(Supplier<InFlowChanges> changes, FormStepEdit stepEdit, AgentDefinitions definitions, FormTurnRedo turnRedo) {
    this.changes = changes;
    this.stepEdit = stepEdit;
    this.definitions = definitions;
    this.turnRedo = turnRedo;
  }

  @Override
  public void prepare(ReviewTask task, RunState run) {
    Step answer = latestAnswer(run);
    task.putShown("answer", text(answer), false);
    FinalAnswer content = (FinalAnswer) answer.content();
    AnswerSettings answers = answers(task, run);
    task.put("hasFields", answers.hasSchema() && content.hasData());
    if (answers.hasSchema() && content.hasData()) {
      AnswerFields.prepare(task, answers.schema(), content.data());
    }
    task.put("replyNotice", WithheldReplies.notice(run));
    // no decision chosen in advance: the reviewer chooses one, the form refuses Complete until then
    task.put("decision", null);
    task.put("regenerateReason", "");
    task.put("feedback", "");
    task.put("followUpQuestion", "");
    AnswerDecisions.prepare(task, definitions);
    List<Step> path = run.activePath();
    Step turnStart = run.latestFollowUp().orElse(null);
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
    Appended edited = editedFields(task, run, answer, decision);
    Step decidedOn = edited == null ? answer : edited.steps().get(0);
    switch (decision) {
      case REGENERATE -> {
        // this answer, or the earlier turn's the reviewer chose
        Step earlier = turnRedo.apply(task, run);
        if (earlier == null) {
          changes.get().rewind(run, run.step(answer.parentNo()).orElseThrow());
        } else {
          decidedOn = earlier;
        }
      }
      case FEEDBACK -> {
        if (task.text("feedback").isEmpty()) {
          throw new ReviewException("write the feedback the agent should continue with");
        }
        changes.get().append(run, List.of(Steps.humanInput(task.text("feedback"), task.actor(), "answer feedback")));
      }
      case EDIT -> stepEdit.apply(task, run, "edited in answer review");
      case FOLLOW_UP -> askFollowUp(task, run, edited);
      case ACCEPT -> { }
    }
    return new Decided(decision, decidedOn.stepNo(), switch (decision) {
      case EDIT -> task.text("editReason");
      // API clients said why in the feedback before the form had a field of its own for it
      case REGENERATE -> task.text("regenerateReason").isEmpty() ? task.text("feedback") : task.text("regenerateReason");
      default -> task.text("feedback");
    });
  }

  /**
   * The answer with the fields the reviewer changed, written as a step of theirs that supersedes the model's (an
   * audited edit like any other), and handed to the process as its variables; {@code null} when nothing changed.
   *
   * @throws ReviewException when the fields break the schema, or were changed for a decision that does not
   *     accept the answer; nothing is written
   */
  private Appended editedFields(ReviewTask task, RunState run, Step answer, Decision decision) {
    FinalAnswer content = (FinalAnswer) answer.content();
    AnswerSettings answers = answers(task, run);
    if (!answers.hasSchema() || !content.hasData()) {
      return null;
    }
    ObjectNode fields = AnswerFields.read(task, answers.schema(), content.data());
    List<String> changed = AnswerFields.changed(answers.schema(), content.data(), fields);
    if (changed.isEmpty()) {
      return null;
    }
    if (decision != Decision.ACCEPT && decision != Decision.FOLLOW_UP) {
      throw new ReviewException("you changed the answer's fields (" + String.join(", ", changed) + "): accept the"
          + " answer with them, or set them back to " + ReviewTask.value(decision) + " it");
    }
    String text = fields.toPrettyString();
    Appended written = changes.get().branch(run, answer, List.of(new NewStep(new FinalAnswer(text, "", "", fields),
        task.actor(), "answer fields edited in answer review: " + String.join(", ", changed))));
    DelegateExecution execution = task.delegate().getExecution();
    ReactAgentProcess.FINAL_ANSWER.set(execution, text);
    execution.setVariables(AnswerVariables.of(answers.schema(), fields));
    return written;
  }

  private AnswerSettings answers(ReviewTask task, RunState run) {
    return definitions.settings(task.processDefinitionId()).forRun(run.run().answerSchema()).answer();
  }

  /** Accepts the answer and asks the next question with it: the conversation goes on at once. */
  private void askFollowUp(ReviewTask task, RunState run, Appended editedFields) {
    String question = task.text("followUpQuestion");
    if (question.isEmpty()) {
      throw new ReviewException("write the follow-up question to ask after this answer");
    }
    if (question.length() > QUESTION_CHARS) {
      throw new ReviewException("the follow-up question is " + question.length() + " characters long; at most "
          + QUESTION_CHARS + " are taken");
    }
    String whyNot = AnswerDecisions.whyNoFollowUp(task, definitions);
    if (whyNot != null) {
      throw new ReviewException(whyNot);
    }
    List<NewStep> followUp = List.of(Steps.followUp(question, task.actor(), null));
    if (editedFields == null) {
      changes.get().append(run, followUp);
    } else {
      changes.get().append(editedFields, followUp);
    }
    DelegateExecution execution = task.delegate().getExecution();
    ReactAgentProcess.QUESTION.set(execution, question);
    execution.setVariables(ReactAgentProcess.FOLLOW_UP.transientWith(ReactAgentProcess.FOLLOW_UP_ASKED));
  }

  private static String text(Step answer) {
    return ((FinalAnswer) answer.content()).text();
  }

  private static Step latestAnswer(RunState run) {
    return run.latestActive(StepKind.FINAL_ANSWER)
        .orElseThrow(() -> new IllegalStateException("run " + run.runId() + " has no answer to review"));
  }
}
