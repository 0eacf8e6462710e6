package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.compose.ChildRunEnded;
import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepReads;
import dev.agentloop.internal.trace.step.Observation;
import java.util.Optional;
import org.camunda.bpm.engine.HistoryService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.history.HistoricVariableInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Edits across the boundary of a call of another agent. A finished child run — one that answered an agent's call —
 * re-opens when a person edits one of its steps: it is started again from the edited step (a restart, see
 * {@link RunRestarts}, with the edit applied at once), and when that run ends, its answer (or why there is none)
 * replaces the caller's observation of the call, and the caller continues from there as after any edit of an
 * observation: the caller's steps after it are superseded, never lost. The caller must still be running, with that
 * observation on its active path. Thread-safe.
 */
class ChildRunEdits {

  private static final Logger LOG = LoggerFactory.getLogger(ChildRunEdits.class);

  private final HistoryService history;
  private final StepReads store;
  private final AgentDefinitions definitions;
  private final ChildRuns agentCalls;
  private final RunRestarts restarts;
  private final RunChanges changes;
  private final ProcessEngine engine;

  ChildRunEdits(ProcessEngine engine, StepReads store, AgentDefinitions definitions, ChildRuns agentCalls,
      RunRestarts restarts, RunChanges changes) {
    this.engine = engine;
    this.history = engine.getHistoryService();
    this.store = store;
    this.definitions = definitions;
    this.agentCalls = agentCalls;
    this.restarts = restarts;
    this.changes = changes;
  }

  /**
   * Re-opens a finished child run with the edit, when the run is one.
   *
   * @return the result of the edit, applied to the child started again; empty when the run has not ended or answered
   *     no agent's call, so that the edit goes its usual way
   * @throws ResumeConflictException when the caller has ended, or has moved past its observation of the call
   */
  Optional<ResumeResult> reopen(StepEdit edit, ResumeService resume) {
    RunRecord child = store.run(edit.runId());
    if (!child.status().isFinished()) {
      return Optional.empty();
    }
    Optional<String> caller = callerOf(edit.runId());
    if (caller.isEmpty()) {
      return Optional.empty();
    }
    String callerRun = caller.get();
    // the restart, its link and the edit are commands of their own, each seeing the one before, in one transaction
    return Optional.of(changes.applyTogether(() -> {
      changes.apply(callerRun, () -> changes.unfinished(callerRun, "take a new answer from run " + edit.runId()
          + ", whose call it made"));
      Step observation = observationOf(callerRun, edit.runId()).orElseThrow(() -> new ResumeConflictException(
          "run " + callerRun + ", which called run " + edit.runId() + ", has moved past that call: its observation of"
              + " it is on a superseded branch; edit run " + callerRun + " instead"));
      if (child.head().version() != edit.baseVersion()) {
        throw new ResumeConflictException("run " + edit.runId() + " is at version " + child.head().version()
            + ", not " + edit.baseVersion() + ": read its trace again and edit on that");
      }
      String reopened = restarts.restart(edit.runId(), edit.stepNo(), edit.reason(), edit.author());
      engine.getRuntimeService().setVariables(reopened,
          ReactAgentProcess.REANSWERS.with(ChildRunEnded.reanswers(callerRun, observation.stepNo())));
      RunRecord copy = store.run(reopened);
      // the restart's copy ends with the step to edit
      return resume.edit(new StepEdit(reopened, copy.head().headStep(), edit.content(), edit.reason(),
          copy.head().version(), edit.author()));
    }));
  }

  /**
   * The child started again has ended: its answer replaces the caller's observation of the call, authored by the
   * person who edited the child. Nothing changes, with one INFO line, when the caller has ended or moved on meanwhile.
   */
  void takeAnswer(ChildRunEnded ended, ResumeService resume) {
    RunRecord caller = store.run(ended.callerRun());
    Optional<Step> observation = store.findStep(ended.callerRun(), ended.observationStep()).filter(Step::isActive);
    if (caller.status().isFinished() || observation.isEmpty()) {
      LOG.info("run {} answered again, but run {} whose call it answers {}; its answer stays in run {}",
          ended.childRun(), ended.callerRun(), caller.status().isFinished() ? "has ended" : "has moved on",
          ended.childRun());
      return;
    }
    Observation call = observation.get().contentAs(Observation.class);
    Observation answered = agentCalls.observationOf(call, ended.childRun(), changes.settings(ended.callerRun()));
    ObjectNode content = JsonNodeFactory.instance.objectNode();
    if (answered.isError()) {
      content.put("error", answered.error());
    } else {
      content.put("result", answered.result());
    }
    content.put("childRun", ended.childRun());
    RunRecord.Restart edited = store.run(ended.childRun()).restartedFrom();
    String author = edited == null ? "agentloop" : edited.by();
    resume.edit(new StepEdit(ended.callerRun(), observation.get().stepNo(), content, "the agent '" + call.tool()
        + "' answered again (run "
        + ended.childRun() + ") after " + author + " edited its run " + (edited == null ? "" : edited.runId()),
        caller.head().version(), author));
  }

  /** The run whose call of an agent this run answered: its super process instance, or the run it answers again. */
  private Optional<String> callerOf(String runId) {
    HistoricProcessInstance instance = history.createHistoricProcessInstanceQuery().processInstanceId(runId)
        .singleResult();
    if (instance == null) {
      return Optional.empty();
    }
    String superInstance = instance.getSuperProcessInstanceId();
    if (superInstance != null) {
      HistoricProcessInstance caller = history.createHistoricProcessInstanceQuery().processInstanceId(superInstance)
          .singleResult();
      // a business process that asked an agent has no trace to edit: the run is restarted as any other
      return caller != null && definitions.isAgent(caller.getProcessDefinitionId()) ? Optional.of(superInstance)
          : Optional.empty();
    }
    HistoricVariableInstance reanswers = history.createHistoricVariableInstanceQuery().processInstanceId(runId)
        .variableName(ReactAgentProcess.REANSWERS.name()).singleResult();
    return reanswers == null || reanswers.getValue() == null ? Optional.empty()
        : Optional.of(ChildRunEnded.of(String.valueOf(reanswers.getValue()), runId).callerRun());
  }

  private Optional<Step> observationOf(String callerRun, String childRun) {
    return store.activePath(callerRun).stream()
        .filter(step -> step.kind() == StepKind.OBSERVATION && childRun.equals(step.contentAs(Observation.class).childRun()))
        .reduce((first, last) -> last);
  }
}
