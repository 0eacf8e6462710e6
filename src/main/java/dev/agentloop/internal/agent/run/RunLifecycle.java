package dev.agentloop.internal.agent.run;

import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.ProcessVariable;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.compose.ChildRunEnded;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.definition.AnswerSchema;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.TreeCharges;
import dev.agentloop.internal.trace.Usage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Keeps the step store's run record in step with the process instance: created when the instance
 * starts (in the same transaction), closed with its outcome when it ends. The listeners are added
 * to every agent process at deployment, as built-in listeners, so neither an analyst's diagram nor
 * a modification that skips custom listeners can lose them.
 */
public class RunLifecycle {

  private final StepStore store;
  private final AgentDefinitions definitions;
  private final ApplicationEventPublisher events;
  private final TreeCharges charges;

  public RunLifecycle(StepStore store, AgentDefinitions definitions, ApplicationEventPublisher events,
      TreeCharges charges) {
    this.store = store;
    this.definitions = definitions;
    this.events = events;
    this.charges = charges;
  }

  /**
   * Creates the run record; a start without a question fails with a clear message. Sets the run time
   * of the agent loop ({@link ReactAgentProcess#MAX_RUN_TIME}), which the loop's boundary timer reads, and
   * whether the run is a conversation with its idle time, which the gateways after the answer read.
   */
  public ExecutionListener onStart() {
    return execution -> {
      String question = ReactAgentProcess.QUESTION.get(execution);
      if (question == null || question.isBlank()) {
        throw new IllegalArgumentException("an agent run needs a non-empty variable '"
            + ReactAgentProcess.QUESTION.name() + "' with the question to answer");
      }
      String answerSchema = answerSchema(execution);
      // the settings come from the deployed diagram, whoever starts the run
      AgentSettings settings = Context.getCommandContext()
          .runWithoutAuthorization(() -> definitions.settings(execution.getProcessDefinitionId()));
      ExecutionEntity caller = ((ExecutionEntity) execution).getProcessInstance().getSuperExecution();
      RunRecord callingRun = caller == null ? null : store.findRun(caller.getProcessInstanceId()).orElse(null);
      if (callingRun == null) {
        store.createRun(execution.getProcessInstanceId(), processKey(execution), question, List.of(), null,
            answerSchema);
      } else {
        // another agent's call: its budget is at most what each run above it has left, and it spends from theirs
        List<String> callers = new ArrayList<>(callingRun.tree().callers());
        callers.add(callingRun.runId());
        store.createRun(execution.getProcessInstanceId(), processKey(execution), question, callers,
            charges.within(settings.budget(), callers), answerSchema);
      }
      execution.setVariable(ReactAgentProcess.MAX_RUN_TIME.name(), settings.limits().maxRunTime().toString());
      // a run that another process called (an agent's call, a business process's step) answers once: its caller
      // waits for it to end
      boolean called = caller != null;
      ReactAgentProcess.CONVERSATION.set(execution, settings.conversation().enabled() && !called);
      ReactAgentProcess.CONVERSATION_IDLE.set(execution, settings.conversation().idle().toString());
    };
  }

  /**
   * The answer schema the start gave, checked and as the run keeps it; {@code null} when it gave none.
   *
   * @throws IllegalArgumentException saying what is wrong with it: the start fails, nothing is created
   */
  private static String answerSchema(DelegateExecution execution) {
    Object value = execution.getVariable(ReactAgentProcess.ANSWER_SCHEMA);
    if (value == null || value.toString().isBlank()) {
      return null;
    }
    try {
      return AnswerSchema.parse(value.toString().strip()).toString();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the variable '" + ReactAgentProcess.ANSWER_SCHEMA + "' of an agent run's"
          + " start is not an answer schema: " + e.getMessage(), e);
    }
  }

  /**
   * For the gateway after an accepted answer ({@link ReactAgentProcess#CONVERSATION_GOES_ON}): when
   * later turns are to be asked again after a regenerated turn and nobody asked a new question with
   * the acceptance, the next of them is asked now, by who asked it first, and the conversation goes on
   * at once ({@link ReactAgentProcess#FOLLOW_UP} {@code asked}).
   */
  public ExecutionListener onAnswerAccepted() {
    return execution -> {
      List<ReplayQueue.Question> queued = ReplayQueue.read(ReactAgentProcess.REPLAY_QUESTIONS.get(execution));
      if (queued.isEmpty() || ReactAgentProcess.FOLLOW_UP_ASKED.equals(ReactAgentProcess.FOLLOW_UP.get(execution))) {
        unsetAsNull(execution, ReactAgentProcess.FOLLOW_UP);
        return;
      }
      ReplayQueue.Question next = queued.get(0);
      RunRecord run = store.run(execution.getProcessInstanceId());
      store.append(run.head(), List.of(Steps.followUp(next.question(), next.askedBy(),
          "asked again after an earlier turn was regenerated")), Usage.NONE);
      ReactAgentProcess.QUESTION.set(execution, next.question());
      if (queued.size() == 1) {
        execution.removeVariable(ReactAgentProcess.REPLAY_QUESTIONS.name());
      } else {
        ReactAgentProcess.REPLAY_QUESTIONS.set(execution, ReplayQueue.write(queued.subList(1, queued.size())));
      }
      execution.setVariables(ReactAgentProcess.FOLLOW_UP.transientWith(ReactAgentProcess.FOLLOW_UP_ASKED));
    };
  }

  /**
   * For the gateway at the start of the agent loop ({@link ReactAgentProcess#RESUME_GATEWAY}): a person's edit in a
   * form sets {@link ReactAgentProcess#RESUME_AT} for the transaction; without one it reads as unset, so that the
   * gateway's conditions are plain variables ({@code ${resumeAt == 'act'}}), as an analyst's diagram may hold them.
   */
  public ExecutionListener onResumeGateway() {
    return execution -> unsetAsNull(execution, ReactAgentProcess.RESUME_AT);
  }

  /** For the idle timer of a conversation waiting for its next question: the run ends saying why. */
  public ExecutionListener onConversationIdle() {
    return execution -> ReactAgentProcess.STATUS_REASON.set(execution, "closed: no follow-up within "
        + ReactAgentProcess.CONVERSATION_IDLE.get(execution));
  }

  /** A transient variable a gateway reads, unset for this transaction unless someone set it. */
  private static void unsetAsNull(DelegateExecution execution, ProcessVariable<String> variable) {
    if (!execution.hasVariable(variable.name())) {
      execution.setVariables(variable.transientWith(null));
    }
  }

  /**
   * For a top-level end event: the run ended with the outcome the end event stands for. The outcome, its reason and
   * the run id become process variables too, for the output mappings of a call activity that asked the agent (the
   * status reason itself is transient where a review sets it, and would not reach the caller).
   */
  public ExecutionListener onEndEvent(String endEventId) {
    RunStatus outcome = outcomeOf(endEventId);
    return execution -> {
      String reason = ReactAgentProcess.STATUS_REASON.get(execution);
      ReactAgentProcess.OUTCOME.set(execution, outcome.name());
      ReactAgentProcess.OUTCOME_REASON.set(execution, reason);
      ReactAgentProcess.RUN_ID.set(execution, execution.getProcessInstanceId());
      store.markEnded(execution.getProcessInstanceId(), outcome, reason);
      String reanswers = ReactAgentProcess.REANSWERS.get(execution);
      if (reanswers != null) {
        events.publishEvent(ChildRunEnded.of(reanswers, execution.getProcessInstanceId()));
      }
    };
  }

  /**
   * For the process: an instance deleted from Cockpit or the API was cancelled; one that another agent called was
   * cancelled with its caller's call, and says why in words ({@link CancelReasons}).
   */
  public ExecutionListener onEnd() {
    return execution -> {
      if (execution.isCanceled()) {
        store.markEnded(execution.getProcessInstanceId(), RunStatus.CANCELLED, CancelReasons.of(execution));
      }
    };
  }

  /**
   * An end event named like a finished status ({@code answered}, {@code rejected}, {@code stopped})
   * ends the run with that status; any other end event counts as answered.
   */
  static RunStatus outcomeOf(String endEventId) {
    try {
      RunStatus status = RunStatus.valueOf(endEventId.toUpperCase(Locale.ROOT));
      return status.isFinished() ? status : RunStatus.ANSWERED;
    } catch (IllegalArgumentException e) {
      return RunStatus.ANSWERED;
    }
  }

  private static String processKey(DelegateExecution execution) {
    return ((ExecutionEntity) execution).getProcessDefinition().getKey();
  }

}
