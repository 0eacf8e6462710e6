package dev.agentloop.internal.telemetry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a run's trace context is found: in this node's memory of the runs it saw start (the most recently used
 * {@value #KNOWN_RUNS}), else in the run's process variable {@value RunTraces#VARIABLE}, read from the engine once and
 * then remembered. Thread-safe.
 */
final class KnownTraces {

  private static final Logger LOG = LoggerFactory.getLogger(KnownTraces.class);
  /** The runs whose context this node knows without a look-up; others are read from the engine once. */
  private static final int KNOWN_RUNS = 10_000;

  private final Supplier<ProcessEngineConfigurationImpl> engine;
  private final Map<String, RunTrace> known = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, RunTrace> eldest) {
      return size() > KNOWN_RUNS;
    }
  });

  /** @param engine the engine whose runs these are, asked only for runs this node has not seen start */
  KnownTraces(Supplier<ProcessEngineConfigurationImpl> engine) {
    this.engine = engine;
  }

  void remember(String runId, RunTrace trace) {
    known.put(runId, trace);
  }

  void forget(String runId) {
    known.remove(runId);
  }

  /** The run's trace context, {@code null} where it has none stored (or the engine could not be asked). */
  RunTrace find(String runId) {
    RunTrace trace = known.get(runId);
    if (trace == null) {
      trace = stored(runId);
      if (trace != null) {
        known.put(runId, trace);
      }
    }
    return trace;
  }

  /** The stored context, read without the caller's authorizations: a span is no access to the run. */
  private RunTrace stored(String runId) {
    ProcessEngineConfigurationImpl configuration = engine.get();
    if (configuration == null) {
      return null;
    }
    try {
      return configuration.getCommandExecutorTxRequired().execute(command -> command.runWithoutAuthorization(() -> {
        ExecutionEntity run = command.getExecutionManager().findExecutionById(runId);
        RunTrace trace = run == null ? null
            : RunTrace.parse(run.getVariable(RunTraces.VARIABLE), run.getProcessDefinition().getKey());
        return trace == null ? null : trace.inConversation(run.getBusinessKey());
      }));
    } catch (ProcessEngineException e) {
      LOG.debug("no trace context for run {}: {}", runId, e.getMessage());
      return null;
    }
  }
}
