package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.LoopState;
import dev.agentloop.internal.agent.loop.RepeatedSideEffects;
import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.TreeCharges;
import dev.agentloop.internal.trace.step.Action;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.RuntimeService;

/**
 * Restarts a finished run from one of its steps: a new process instance of the same agent version
 * whose trace starts as a copy of the path up to that step (on any branch), linked both ways
 * ({@code restartedFrom} on the new run, {@code restarts} on the old), continuing where that step
 * leads. A call on the copied path that had run with a side effect in the old run waits for
 * approval. A run that another agent's call led to spends from its callers' budgets again, as it did
 * (its budget at most what they have left). One transaction. Thread-safe.
 */
public class RunRestarts {

  private final RuntimeService runtime;
  private final StepStore store;
  private final AgentDefinitions definitions;
  private final TraceSurgery surgery;
  private final RepeatedSideEffects repeats;
  private final RunAccess access;
  private final RunChanges changes;
  private final TreeCharges charges;

  RunRestarts(RuntimeService runtime, StepStore store, AgentDefinitions definitions, TraceSurgery surgery,
      RepeatedSideEffects repeats, RunAccess access, RunChanges changes, TreeCharges charges) {
    this.charges = charges;
    this.runtime = runtime;
    this.store = store;
    this.definitions = definitions;
    this.surgery = surgery;
    this.repeats = repeats;
    this.access = access;
    this.changes = changes;
  }

  /**
   * @return the id of the new run
   * @throws ResumeConflictException when the run has not ended (edit it instead)
   * @throws UnknownStepException, InvalidEditException for a step it cannot restart from
   */
  public String restart(String runId, int fromStep, String reason, String author) {
    if (reason == null || reason.isBlank()) {
      throw new InvalidEditException("say why the run is restarted (reason): it is kept with the new run");
    }
    access.requireRestart();
    return changes.apply(runId, () -> {
      RunRecord run = store.run(runId);
      if (!run.status().isFinished()) {
        throw new ResumeConflictException("run " + runId + " has not ended (" + run.status() + "); edit one of its"
            + " steps instead: POST /api/runs/" + runId + "/steps/{stepId}/edit");
      }
      Step from = store.findStep(runId, fromStep)
          .orElseThrow(() -> new UnknownStepException("run " + runId + " has no step " + fromStep));
      if (from.kind() == StepKind.FINAL_ANSWER) {
        throw new InvalidEditException("step " + fromStep + " is a final answer, which ends a run; restart from the"
            + " step before it" + (from.parentNo() == null ? "" : " (" + from.parentNo() + ")")
            + " for a new answer");
      }
      String definitionId = changes.definitionId(runId);
      AgentSettings settings = definitions.settings(definitionId);
      List<Step> path = markRepeats(run, fromStep, store.allSteps(runId));
      Continuation at = surgery.continuationOf(new LoopState(run, null, path, false), settings);
      String restarted = runtime.createProcessInstanceById(definitionId)
          .setVariables(ReactAgentProcess.QUESTION.with(run.question()))
          // the answer schema its start gave, which the restarted run answers by as the run did
          .setVariables(run.answerSchema() == null ? java.util.Map.of()
              : java.util.Map.of(ReactAgentProcess.ANSWER_SCHEMA, run.answerSchema()))
          .startBeforeActivity(at.elementId())
          .setVariables(LoopJump.variablesFor(at, settings))
          .execute(false, false).getId();
      store.copyPath(restarted, path, new RunRecord.Restart(runId, fromStep, author, reason));
      // before its first call, which the worker takes once this commits
      charges.join(restarted, run.tree().callers(), settings.budget());
      return restarted;
    });
  }

  /**
   * The path from the root to {@code fromStep}, on whatever branch it is, root first; calls of its
   * last turn that ran with a side effect elsewhere in the old run are marked for approval.
   */
  private List<Step> markRepeats(RunRecord run, int fromStep, List<Step> all) {
    Map<Integer, Step> byNumber = new HashMap<>();
    all.forEach(step -> byNumber.put(step.stepNo(), step));
    List<Step> path = new ArrayList<>();
    for (Step step = byNumber.get(fromStep); step != null; step = byNumber.get(step.parentNo())) {
      path.add(step);
    }
    Collections.reverse(path);
    Set<Integer> onPath = path.stream().map(Step::stepNo).collect(Collectors.toSet());
    List<Step> rest = all.stream().filter(step -> !onPath.contains(step.stepNo())).toList();
    Map<String, Action> marked = new HashMap<>();
    repeats.mark(run.runId(), Turn.newest(path).open(), rest).forEach(action -> marked.put(action.callId(), action));
    return path.stream().map(step -> step.content() instanceof Action action && marked.containsKey(action.callId())
        ? step.withContent(marked.get(action.callId()))
        : step).toList();
  }
}
