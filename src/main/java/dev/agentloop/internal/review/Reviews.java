package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.StepReads;
import dev.agentloop.internal.trace.step.Observation;
import java.util.Map;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.form.handler.TaskFormHandler;

/**
 * The listeners the engine plugin attaches to review tasks at deployment: on create the task gets
 * its form data, on complete the submission becomes a decision ({@code decision}, transient, for
 * the gateway after the task) and steps in the trace. Thread-safe.
 */
public class Reviews {

  /** Task-local variable: that the scripted demo model answers, and how to choose a real one; or empty. */
  static final String MODEL_NOTICE = "modelNotice";
  /** Task-local variable: the last change a person made to the run's course ({@link LastChange}), or empty. */
  static final String LAST_CHANGE = "lastChange";
  /** Task-local variable: the agent and the version of it the run is on; a migration says the new one. */
  static final String AGENT_VERSION = "agentVersion";

  private final Map<ReviewKind, Review> reviews;
  private final CallsForPeople calls;
  private final AgentDefinitions definitions;
  private final DecisionLog decisions;

  private final StepReads store;
  /** Said on every form where the answers come from the scripted demo model; empty otherwise. */
  private final String modelNotice;

  Reviews(Map<ReviewKind, Review> reviews, CallsForPeople calls, AgentDefinitions definitions, DecisionLog decisions,
      StepReads store, String modelNotice) {
    this.reviews = Map.copyOf(reviews);
    this.store = store;
    this.modelNotice = modelNotice;
    this.decisions = decisions;
    this.calls = calls;
    this.definitions = definitions;
  }

  /** The create and complete listener of a review task of this kind. */
  public TaskListener taskListener(ReviewKind kind) {
    Review review = reviews.get(kind);
    return task -> {
      ReviewTask reviewTask = new ReviewTask(task);
      if (TaskListener.EVENTNAME_CREATE.equals(task.getEventName())) {
        reviewTask.put(ReviewTask.KIND, kind.value());
        reviewTask.putHeading();
        reviewTask.putAgentVersion();
        reviewTask.put(MODEL_NOTICE, modelNotice);
        // the run read once for the form: the review derives what it shows from it
        RunState run = store.state(task.getProcessInstanceId());
        reviewTask.put(LAST_CHANGE, LastChange.of(run.activePath(), decisions.of(run.runId())));
        reviewTask.putShown(ConversationSoFar.EARLIER_TURNS, ConversationSoFar.of(run), true);
        review.prepare(reviewTask, run);
      } else if (TaskListener.EVENTNAME_COMPLETE.equals(task.getEventName())) {
        try {
          requireFieldsOnTheTask(task);
          // read once for the decision, not locked (the head's version refuses a write on a run that moved)
          decide(reviewTask, review.decide(reviewTask, store.state(task.getProcessInstanceId())));
        } catch (ReviewException refusal) {
          throw Refusals.refuse(refusal);
        }
      }
    };
  }

  /** The form handler of a review task: only the task's own fields, see {@link ReviewFormHandler}. */
  public TaskFormHandler formHandler(TaskFormHandler parsed) {
    return new ReviewFormHandler(parsed);
  }

  /**
   * A review reads what a person submitted from the task's own variables, where Tasklist's forms
   * and submit-form put them. Completing with process variables of the same names (as
   * {@code TaskService.complete(id, variables)} does) would leave the form's defaults in place
   * and decide on them, so it is refused; the whole completion rolls back.
   */
  private static void requireFieldsOnTheTask(DelegateTask task) {
    task.getVariableNamesLocal().stream().filter(name -> task.getExecution().hasVariable(name)).findFirst()
        .ifPresent(name -> {
          throw new ReviewException("'" + name + "' came as a process variable; submit the review's fields to the"
              + " task: in Tasklist, with submit-form, or with POST /api/runs/{id}/tasks/{taskId}/complete");
        });
  }

  /**
   * For the timer on an ask-human task: when nobody answered in time, the agent is told so in the
   * observation of its question and goes on.
   */
  public ExecutionListener noAnswerListener() {
    return execution -> {
      RunState run = store.state(execution.getProcessInstanceId());
      String timeout = definitions.settings(execution.getProcessDefinitionId()).review().askHumanTimeout().toString();
      calls.write(run, Steps.observation(Observation.error(calls.single(run, AskHumanTool.NAME),
          "no answer within " + timeout + "; continue without it"), Steps.AGENTLOOP));
    };
  }

  /** The decision goes to the gateway after the task, and into the trace with who made it. */
  private void decide(ReviewTask task, Decided decided) {
    if (decided != null) {
      String value = ReviewTask.value(decided.decision());
      if (decided.stepNo() != null) {
        decisions.record(task.runId(), decided.stepNo(), value, task.actor(), decided.reason());
      }
      task.delegate().getExecution().setVariables(ReactAgentProcess.DECISION.transientWith(value));
    }
  }
}
