package dev.agentloop.internal.telemetry;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngineException;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.cfg.TransactionState;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Where each run's spans go: the run's trace. When a run starts, its {@code invoke_agent} span is made (a child of
 * the span current on the starting thread, e.g. the host's HTTP request, or of the calling run's for an agent's
 * call) and its {@code traceparent} stored with the run, as process variable {@value #VARIABLE}; every later span of
 * the run, on whichever thread, node or after whichever restart, is its child, so one run is one trace. A remote
 * tool worker that fetches the variable can join the trace too.
 *
 * <p>The {@code invoke_agent} span ends when the start commits: a run may wait days for a person, and a span held
 * open that long is lost with the node that holds it. Its children come as the run proceeds.
 *
 * <p>Without a tracer (the host has no tracing, or no Micrometer Tracing at all), nothing is made and nothing stored.
 * Spans are handed to the host's tracer, whose exporter sends them in the background: a slow or unreachable collector
 * never holds a run. Thread-safe.
 */
public class RunTraces {

  /** The process variable with the run's trace context, W3C's {@code traceparent}. */
  public static final String VARIABLE = "traceparent";

  private static final Logger LOG = LoggerFactory.getLogger(RunTraces.class);
  /** The runs whose context this node knows without a look-up; others are read from the engine once. */
  private static final int KNOWN_RUNS = 10_000;

  /** Null where the host has no tracing. */
  private final SpanSource spans;
  private final Supplier<ProcessEngineConfigurationImpl> engine;
  private final TelemetrySettings settings;
  private final Map<String, RunTrace> known = Collections.synchronizedMap(new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, RunTrace> eldest) {
      return size() > KNOWN_RUNS;
    }
  });

  /**
   * @param spans the host's tracer, {@code null} where it has none
   * @param engine the engine whose runs these are, asked only for runs this node has not seen start
   */
  RunTraces(SpanSource spans, Supplier<ProcessEngineConfigurationImpl> engine, TelemetrySettings settings) {
    this.spans = spans;
    this.engine = engine;
    this.settings = settings;
  }

  /** A {@code RunTraces} that makes no spans, for hosts without tracing (and without Micrometer Tracing). */
  public static RunTraces none() {
    return new RunTraces(null, () -> null, TelemetrySettings.DEFAULTS);
  }

  public boolean enabled() {
    return spans != null;
  }

  TelemetrySettings settings() {
    return settings;
  }

  /** For an agent process's start: the run's {@code invoke_agent} span, its context stored with the run. */
  public ExecutionListener onRunStart() {
    return execution -> {
      if (!enabled()) {
        return;
      }
      String runId = execution.getProcessInstanceId();
      String agent = ((ExecutionEntity) execution).getProcessDefinition().getKey();
      DelegateExecution caller = execution.getSuperExecution();
      RunTrace callerTrace = caller == null ? null : RunTrace.parse(caller.getVariable(VARIABLE), "");
      TraceSpan span = spans.startRun(GenAi.INVOKE_AGENT + " " + agent, callerTrace);
      common(span, runId, agent).tag(GenAi.OPERATION_NAME, GenAi.INVOKE_AGENT);
      RunTrace trace = span.position(agent);
      execution.setVariable(VARIABLE, trace.traceparent());
      known.put(runId, trace);
      afterCommit(span::end);
    };
  }

  /** For an agent process's end: this node need not remember the run any more. */
  public ExecutionListener onRunEnd() {
    return execution -> known.remove(execution.getProcessInstanceId());
  }

  /** The run's trace, if it has one: it started with tracing on, and its context is stored. */
  Optional<RunTrace> find(String runId) {
    if (!enabled() || runId == null) {
      return Optional.empty();
    }
    RunTrace trace = known.get(runId);
    if (trace == null) {
      trace = stored(runId);
      if (trace != null) {
        known.put(runId, trace);
      }
    }
    return Optional.ofNullable(trace);
  }

  /**
   * A child span of the run's trace ({@code parent}: of that span in it), tagged with the run and agent, started at
   * {@code startedAt} (null: now).
   *
   * @param client whether it is a call of a remote service (a model), else internal
   */
  TraceSpan start(String runId, RunTrace run, TraceSpan parent, String name, boolean client, Instant startedAt) {
    return common(spans.start(run, parent, name, client, startedAt), runId, run.agent());
  }

  /**
   * Runs {@code action} once the engine's (or Spring's) transaction commits, or now outside one: a decision rolled back
   * (a refused form) makes no span.
   */
  static void afterCommit(Runnable action) {
    CommandContext command = Context.getCommandContext();
    if (command != null) {
      command.getTransactionContext().addTransactionListener(TransactionState.COMMITTED, committed -> action.run());
    } else if (TransactionSynchronizationManager.isSynchronizationActive()) {
      TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
        @Override
        public void afterCommit() {
          action.run();
        }
      });
    } else {
      action.run();
    }
  }

  private static TraceSpan common(TraceSpan span, String runId, String agent) {
    return span.tag(GenAi.AGENT_NAME, agent).tag(GenAi.CONVERSATION_ID, runId).tag(Extension.RUN_ID, runId);
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
        return run == null ? null : RunTrace.parse(run.getVariable(VARIABLE), run.getProcessDefinition().getKey());
      }));
    } catch (ProcessEngineException e) {
      LOG.debug("no trace context for run {}: {}", runId, e.getMessage());
      return null;
    }
  }
}
