package dev.agentloop.internal.resume;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.LoopState;
import dev.agentloop.internal.agent.loop.RepeatedSideEffects;
import dev.agentloop.internal.agent.loop.Router;
import dev.agentloop.internal.agent.loop.Turn;
import dev.agentloop.internal.trace.Appended;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.StaleHeadException;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace side of resuming, the same whether a person edits from the REST API, Cockpit or a
 * Tasklist form: a new branch replaces the edited step, carrying over the rest of its turn that the
 * edit does not touch (the other calls of the turn and their observations); the side effects on the
 * abandoned part are reported, and calls on the new path that would repeat them are marked for
 * approval; the new path tells where the run continues. Joins the caller's transaction.
 */
class TraceSurgery {

  private final StepStore store;
  private final Router router;
  private final RepeatedSideEffects repeats;

  TraceSurgery(StepStore store, Router router, RepeatedSideEffects repeats) {
    this.store = store;
    this.router = router;
    this.repeats = repeats;
  }

  /** What a change of the trace did, and where the run goes on. */
  record Outcome(int version, Integer newStep, List<Integer> superseded, List<SideEffect> sideEffects,
      Continuation continuation) {

    /** What the API answers for this outcome of changing {@code changedStep} of the run. */
    ResumeResult result(String runId, int changedStep) {
      return new ResumeResult(runId, changedStep, newStep, version, continuation.elementId(), superseded, sideEffects);
    }
  }

  /**
   * Replaces {@code original}, a step of the active path, by {@code replacement}.
   *
   * @throws dev.agentloop.internal.trace.StaleHeadException when the run's head is no longer at {@code run}'s version
   */
  Outcome replace(RunRecord run, Step original, NewStep replacement, AgentSettings settings) {
    // the edited step's turn and what follows: the cost of an edit does not grow with the run's length
    return replace(run, store.activePathFrom(run.runId(), Math.max(1, original.stepNo() - Turn.WINDOW)), original,
        replacement, settings);
  }

  /**
   * {@link #replace(RunRecord, Step, NewStep, AgentSettings)} on the active path of a run's state the caller
   * read (and checked to be at the run's current version): the store is not read again.
   */
  Outcome replace(RunState state, Step original, NewStep replacement, AgentSettings settings) {
    return replace(state.run(), state.activePath(), original, replacement, settings);
  }

  /** @param path the active path from at least a turn before {@code original} on, root first */
  private Outcome replace(RunRecord run, List<Step> path, Step original, NewStep replacement, AgentSettings settings) {
    int edited = path.indexOf(original);
    if (edited < 0) {
      // callers lock the run first; should a path change all the same, refuse rather than cut a wrong branch
      throw new StaleHeadException(run.runId(), run.head().version());
    }
    List<Step> abandoned = path.subList(edited, path.size());
    List<Step> carried = Turn.unaffectedBy(original, abandoned.subList(1, abandoned.size()));
    List<NewStep> steps = new ArrayList<>();
    steps.add(replacement);
    carried.forEach(step -> steps.add(NewStep.copyOf(step)));
    List<Step> lost = abandoned.stream().filter(step -> !carried.contains(step)).toList();
    Appended appended = store.branch(run.head(), original, markRepeats(run.runId(), steps, lost));
    // the new path's end is known: the steps before the edited one (a turn at least), then the new branch
    List<Step> newPath = new ArrayList<>(path.subList(0, edited));
    newPath.addAll(appended.steps());
    return new Outcome(appended.head().version(), appended.steps().get(0).stepNo(), numbers(abandoned),
        sideEffects(path, lost), continuationAfter(Turn.newest(newPath).open(), settings));
  }

  /** Moves the head back to the step before the run's final answer (a step of {@code run}), for a new attempt. */
  Outcome regenerate(RunState run, Step answer) {
    int version = store.rewind(run.head(), run.step(answer.parentNo()).orElseThrow()).version();
    return new Outcome(version, null, List.of(answer.stepNo()), List.of(), Continuation.THINK);
  }

  Continuation continuationOf(LoopState state, AgentSettings settings) {
    return continuationAfter(state.turn().open(), settings);
  }

  /** Where a run continues with these calls of its newest turn still open: {@code think} when none are. */
  private Continuation continuationAfter(List<Action> pending, AgentSettings settings) {
    return pending.isEmpty() ? Continuation.THINK : Continuation.after(router.afterToolCalls(pending, settings));
  }

  /** Calls on the new path without an observation, marked where they would repeat a side effect. */
  private List<NewStep> markRepeats(String runId, List<NewStep> steps, List<Step> lost) {
    List<Action> open = Turn.open(steps.stream().map(NewStep::content).toList());
    Map<String, Action> marked = new HashMap<>();
    repeats.mark(runId, open, lost).forEach(action -> marked.put(action.callId(), action));
    return steps.stream()
        .map(step -> step.content() instanceof Action action && marked.containsKey(action.callId())
            ? new NewStep(marked.get(action.callId()), step.author(), step.reason())
            : step)
        .toList();
  }

  /** The side effects among the lost steps, with the arguments of their calls (found in {@code path}). */
  private List<SideEffect> sideEffects(List<Step> path, List<Step> lost) {
    Map<String, JsonNode> arguments = new HashMap<>();
    path.stream().filter(step -> step.content() instanceof Action).map(step -> step.contentAs(Action.class))
        .forEach(action -> arguments.put(action.callId(), action.arguments()));
    return lost.stream().filter(repeats::isSideEffect).map(step -> {
      Observation observation = step.contentAs(Observation.class);
      return new SideEffect(step.stepNo(), step.author(), arguments.get(observation.callId()), observation.result(),
          observation.error());
    }).toList();
  }

  private static List<Integer> numbers(List<Step> steps) {
    return steps.stream().map(Step::stepNo).toList();
  }
}
