package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.CallerBudgets;
import dev.agentloop.internal.agent.loop.LoopState;
import dev.agentloop.internal.agent.loop.LoopStateReader;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what child runs came to into their caller's trace: one observation per call, linked to the child run that
 * answered it ({@link ChildAnswers}), each call one tool call of the caller. A call observed already keeps its
 * observation, and the later answer is dropped. Thread-safe.
 */
final class ChildObservations {

  private static final Logger LOG = LoggerFactory.getLogger(ChildObservations.class);

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final StepStore store;
  private final ChildAnswers answers;
  private final CallerBudgets callers;
  private final ChildRuns calls;

  /** @param calls which calls of a turn still wait for their child run */
  ChildObservations(AgentDefinitions definitions, LoopStateReader reader, StepStore store, CallerBudgets callers,
      ChildRuns calls) {
    this.definitions = definitions;
    this.reader = reader;
    this.store = store;
    this.answers = new ChildAnswers(store);
    this.callers = callers;
    this.calls = calls;
  }

  /**
   * Writes what one child run came to as its call's observation.
   *
   * @param childRun {@code null}: a child that ended without saying which run it was
   */
  void observe(String runId, String processDefinitionId, String callId, String childRun) {
    AgentSettings settings = definitions.settings(processDefinitionId);
    LoopState state = reader.read(runId, settings.pathStepsToRead());
    Optional<Action> call = calls.pending(state.turn(), settings).stream()
        .filter(a -> a.callId().equals(callId)).findFirst();
    if (call.isEmpty()) {
      LOG.info("call {} of run {} is observed already; the answer of run {} is dropped", callId, runId, childRun);
      return;
    }
    Observation observation = answers.observation(call.get(), childRun, settings).ofChildRun(childRun);
    // the call is one tool call of this run; what the child spent was charged to this run's tree as it spent it
    store.append(state.head(), List.of(new NewStep(observation, call.get().tool())), Usage.toolCall());
    callers.charge(state.run(), 0, 1, 0);
  }

  /**
   * Writes the observations of calls whose child runs have ended, in the order the model made the calls, with one
   * append; calls without an answering run in {@code childRuns} stay open.
   *
   * @param childRuns the answering run of each call id; a {@code null} run is a child that ended without saying
   */
  void observeAll(String runId, String processDefinitionId, Map<String, String> childRuns) {
    AgentSettings settings = definitions.settings(processDefinitionId);
    LoopState state = reader.read(runId, settings.pathStepsToRead());
    List<NewStep> steps = new ArrayList<>();
    for (Action call : calls.pending(state.turn(), settings)) {
      if (childRuns.containsKey(call.callId())) {
        String childRun = childRuns.get(call.callId());
        steps.add(new NewStep(answers.observation(call, childRun, settings).ofChildRun(childRun), call.tool()));
      }
    }
    if (steps.size() < childRuns.size()) {
      LOG.info("{} of the calls of run {} answered by {} are observed already; their answers are dropped",
          childRuns.size() - steps.size(), runId, childRuns.values());
    }
    if (!steps.isEmpty()) {
      // each call is one tool call of this run; what the children spent was charged to its tree as they spent it
      store.append(state.head(), steps, new Usage(0, steps.size(), 0));
      callers.charge(state.run(), 0, steps.size(), 0);
    }
  }

  /** The observation of a call that this child run answers, for a child started again after an edit. */
  Observation observationOf(Observation call, String childRun, AgentSettings settings) {
    return answers.observationOf(call, childRun, settings);
  }
}
