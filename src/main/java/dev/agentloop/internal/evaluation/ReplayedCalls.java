package dev.agentloop.internal.evaluation;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentAsTool;
import dev.agentloop.internal.agent.loop.CallReplay;
import dev.agentloop.internal.tool.RemoteTool;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.StepReads;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.spi.AgentTool;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The calls of a candidate's run, answered from its case's record ({@link CallReplay}): a call the recorded run made
 * (the same tool with the same arguments after normalisation) observes what the recorded run observed, its n-th time
 * the recorded n-th time, and nothing runs; a tool with side effects, a call of another agent and a remote tool never
 * run otherwise, and the observation says why; a call of a tool without side effects that was not recorded runs, or is
 * refused where the evaluation chose so. Any node's worker may take a candidate's step: the case is found by the run's
 * id in the evaluations' table, where the run's start wrote it, and kept for the next calls. Thread-safe.
 */
class ReplayedCalls implements CallReplay {

  /** The author of an observation replayed from the record. */
  static final String REPLAY = "agentloop-replay";
  /** The failure kind of a side-effect tool's call that did not run in an evaluation. */
  static final String SIDE_EFFECT = "side_effect_not_run";
  /** The failure kind of a call without side effects that was not recorded and was not run. */
  static final String NOT_RECORDED = "not_recorded";
  private static final int KEPT_CASES = 256;

  private final EvaluationStore evaluations;
  private final StepReads store;
  private final ToolRegistry tools;
  private final Map<String, Replay> cases = Collections.synchronizedMap(new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Replay> eldest) {
      return size() > KEPT_CASES;
    }
  });

  ReplayedCalls(EvaluationStore evaluations, StepReads store, ToolRegistry tools) {
    this.evaluations = evaluations;
    this.store = store;
    this.tools = tools;
  }

  @Override
  public boolean replays(String agentKey) {
    return EvaluationKeys.isCandidate(agentKey);
  }

  @Override
  public Optional<Replayed> observe(String runId, Action call) {
    Replay replay = cases.computeIfAbsent(runId, this::load);
    if (replay == null) {
      return refused(call, "not run: this candidate run belongs to no evaluation case", Observation.NOT_RUN);
    }
    AgentTool tool = tools.find(call.tool()).orElse(null);
    boolean sideEffects = tool == null || tool.sideEffects();
    String signature = RecordedCalls.signature(call, tools);
    // the calls this run was answered from the record already: its next one gets the next recorded observation
    int before = RecordedCalls.of(store.activePath(runId), tools, (step, observed) -> step.author().equals(REPLAY))
        .count(signature);
    Optional<Observation> recorded = replay.calls().nth(signature, before, !sideEffects);
    if (recorded.isPresent()) {
      Observation was = recorded.get();
      return Optional.of(new Replayed(new Observation(call.callId(), call.tool(), was.result(), was.error(),
          was.failure(), null), REPLAY, true));
    }
    if (sideEffects) {
      return refused(call, "not run in an evaluation: " + call.tool() + " changes things outside AgentLoop (it has"
          + " side effects), and the recorded run made no such call to replay", SIDE_EFFECT);
    }
    if (tool instanceof AgentAsTool || tool instanceof RemoteTool) {
      return refused(call, "not run in an evaluation: the recorded run made no such call, and a call of "
          + (tool instanceof AgentAsTool ? "another agent" : "a remote tool") + " that was not recorded never runs"
          + " in one", NOT_RECORDED);
    }
    if (replay.choices().replay().unmatchedCalls() == ReplayChoices.UnmatchedCalls.REFUSE) {
      return refused(call, "not run in an evaluation: the recorded run made no such call, and this evaluation runs"
          + " no call that was not recorded", NOT_RECORDED);
    }
    return Optional.empty();
  }

  /** The case's run ended: its calls are answered no more. */
  void forget(String runId) {
    cases.remove(runId);
  }

  private Replay load(String runId) {
    return evaluations.caseOfRun(runId).map(found -> new Replay(
        EvaluationJson.read(found.choices(), EvaluationJson.Choices.class),
        found.recordedRun() == null || store.findRun(found.recordedRun()).isEmpty() ? RecordedCalls.NONE
            : RecordedCalls.ofTools(store.activePath(found.recordedRun()), tools))).orElse(null);
  }

  private static Optional<Replayed> refused(Action call, String why, String failure) {
    return Optional.of(new Replayed(Observation.error(call, why, failure), Steps.AGENTLOOP, false));
  }

  /** A case's choices and the calls its recorded run observed. */
  private record Replay(EvaluationJson.Choices choices, RecordedCalls calls) {}
}
