package dev.agentloop.internal.telemetry;

import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.ExecutionListener;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;

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

  /** Null where the host has no tracing. */
  private final SpanSource spans;
  private final TelemetrySettings settings;
  private volatile ModelIdentity model = ModelIdentity.NONE;
  private final KnownTraces known;

  /**
   * @param spans the host's tracer, {@code null} where it has none
   * @param engine the engine whose runs these are, asked only for runs this node has not seen start
   */
  RunTraces(SpanSource spans, Supplier<ProcessEngineConfigurationImpl> engine, TelemetrySettings settings) {
    this.spans = spans;
    this.known = new KnownTraces(engine);
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

  /**
   * For an agent process's start: the run's {@code invoke_agent} span, its context stored with the run. A run that
   * answers another agent's call hangs below an {@code execute_tool} span of the calling run.
   *
   * @param callIdVariable the call activity's local variable with the id of the call a child run answers
   */
  public ExecutionListener onRunStart(String callIdVariable) {
    return execution -> {
      if (!enabled()) {
        return;
      }
      String runId = execution.getProcessInstanceId();
      ProcessDefinitionEntity definition = ((ExecutionEntity) execution).getProcessDefinition();
      String agent = definition.getKey();
      RunTrace parent = callOf(execution.getSuperExecution(), agent, runId, callIdVariable);
      TraceSpan span = spans.startRun(GenAi.INVOKE_AGENT + " " + agent, parent);
      String conversation = execution.getProcessBusinessKey();
      span.tag(GenAi.OPERATION_NAME, GenAi.INVOKE_AGENT);
      AgentAttributes.of(definition).tag(span);
      model.tag(span);
      RunTrace trace = span.position(agent).inConversation(conversation);
      common(span, runId, trace);
      execution.setVariable(VARIABLE, trace.traceparent());
      known.remember(runId, trace);
      AfterCommit.run(span::end);
    };
  }

  /**
   * A child run's call in its caller's trace: an {@code execute_tool} span of the caller, named after the agent
   * called, that the child's {@code invoke_agent} hangs below; {@code null} for a run nobody called.
   */
  private RunTrace callOf(DelegateExecution caller, String agent, String childRunId, String callIdVariable) {
    RunTrace callerTrace = caller == null ? null : RunTrace.parse(caller.getVariable(VARIABLE), "");
    if (callerTrace == null) {
      return null;
    }
    callerTrace = callerTrace.inConversation(caller.getProcessBusinessKey());
    Object callId = caller.getVariableLocal(callIdVariable);
    TraceSpan call = common(spans.start(callerTrace, null, GenAi.EXECUTE_TOOL + " " + agent, false, null),
        caller.getProcessInstanceId(), callerTrace)
        .tag(GenAi.OPERATION_NAME, GenAi.EXECUTE_TOOL)
        .tag(GenAi.TOOL_NAME, agent)
        .tag(GenAi.TOOL_TYPE, "function")
        .tag(Extension.TOOL_LANE, "agent")
        .tag(Extension.CHILD_RUN_ID, childRunId);
    if (callId != null) {
      call.tag(GenAi.TOOL_CALL_ID, callId.toString());
    }
    AfterCommit.run(call::end);
    return call.position("");
  }

  /** The model the runs' calls go to, for their {@code invoke_agent} spans. */
  void calls(ModelIdentity identity) {
    this.model = identity;
  }

  /** For an agent process's end: this node need not remember the run any more. */
  public ExecutionListener onRunEnd() {
    return execution -> known.forget(execution.getProcessInstanceId());
  }

  /** The run's trace, if it has one: it started with tracing on, and its context is stored. */
  Optional<RunTrace> find(String runId) {
    if (!enabled() || runId == null) {
      return Optional.empty();
    }
    return Optional.ofNullable(known.find(runId));
  }

  /**
   * A child span of the run's trace ({@code parent}: of that span in it), tagged with the run and agent, started at
   * {@code startedAt} (null: now).
   *
   * @param client whether it is a call of a remote service (a model), else internal
   */
  TraceSpan start(String runId, RunTrace run, TraceSpan parent, String name, boolean client, Instant startedAt) {
    return common(spans.start(run, parent, name, client, startedAt), runId, run);
  }

  /** The run's agent and conversation: its client's conversation id, else the run itself. */
  private static TraceSpan common(TraceSpan span, String runId, RunTrace run) {
    return span.tag(GenAi.AGENT_NAME, run.agent())
        .tag(GenAi.CONVERSATION_ID, run.conversation() != null ? run.conversation() : runId)
        .tag(Extension.RUN_ID, runId);
  }
}
