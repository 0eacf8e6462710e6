package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.EvaluationKeys;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.Objects;
import java.util.Optional;

/**
 * Answers the tool calls of runs that replay recorded ones (an evaluation's candidate runs) instead of running them:
 * a call that was recorded observes what was recorded, and nothing runs; a call that was not is refused, or runs as in
 * any run where the replay lets it (a tool without side effects). {@link CallDispatcher} asks it for every call of
 * such a run, local, remote and of other agents alike, after a person's rejection and the registry's checks. Implemented
 * above this package (by the evaluations); {@link #NONE} stands in where there is none. Implementations are thread-safe.
 */
public interface CallReplay {

  /**
   * Where no evaluation replays: the runs of agents run their calls, and a candidate's run (which only an evaluation
   * starts) has every call refused, so that a candidate never acts on the world, whatever else is missing.
   */
  CallReplay NONE = new CallReplay() {
    @Override
    public boolean replays(String agentKey) {
      return EvaluationKeys.isCandidate(agentKey);
    }

    @Override
    public Optional<Replayed> observe(String runId, Action call) {
      return Optional.of(new Replayed(Observation.error(call, "not run: this is an evaluation's candidate run, and no"
          + " evaluation replays its calls here", Observation.NOT_RUN), Steps.AGENTLOOP, false));
    }
  };

  /** Whether the runs of this agent key are replayed. */
  boolean replays(String agentKey);

  /**
   * What a call of a replayed run observes instead of running.
   *
   * @param call the call as it is to run (with a person's edited arguments)
   * @return the observation and its author; empty: the call runs as in any run (only for tools without side effects)
   */
  Optional<Replayed> observe(String runId, Action call);

  /**
   * An observation written without running the tool.
   *
   * @param countsAsCall whether it counts against the run's tool-call budget as the call it stands for (a recorded
   *     observation does; a refusal does not, as any refused call)
   */
  record Replayed(Observation observation, String author, boolean countsAsCall) {

    public Replayed {
      Objects.requireNonNull(observation, "observation");
      Objects.requireNonNull(author, "author");
    }
  }
}
