package dev.agentloop.internal.telemetry;

import dev.agentloop.internal.async.AsyncFailures;
import java.time.Instant;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import org.camunda.bpm.engine.delegate.ExecutionListener;

/**
 * Tool calls as {@code execute_tool {tool}} spans of their run's trace: those the embedded worker runs (Spring bean
 * tools, MCP servers' tools), from the call to its outcome, and those remote workers serve, from the moment the
 * call waits for a worker to the moment one completes it. Thread-safe.
 */
public class ToolSpans {

  /** The local variable of a remote call's task with the time it started waiting for a worker, ISO-8601. */
  public static final String REMOTE_STARTED = "agentloopToolStarted";

  private final RunTraces traces;

  public ToolSpans(RunTraces traces) {
    this.traces = traces;
  }

  /**
   * Runs {@code call} in an {@code execute_tool} span.
   *
   * @param arguments the call's arguments as JSON, tagged only where content may be captured
   * @param errorType what went wrong in an outcome, e.g. {@code timed_out}, or {@code null} for a success
   */
  public <T> CompletionStage<T> execute(String runId, String callId, String tool, String arguments,
      Supplier<CompletionStage<T>> call, Function<T, String> errorType, Function<T, String> result) {
    RunTrace run = traces.find(runId).orElse(null);
    if (run == null) {
      return call.get();
    }
    TraceSpan span = start(runId, run, tool, callId, null).tag(Extension.TOOL_LANE, "embedded");
    if (traces.settings().captureContent() && arguments != null) {
      span.tag(GenAi.TOOL_CALL_ARGUMENTS, arguments);
    }
    CompletionStage<T> outcome;
    try {
      outcome = call.get();
    } catch (RuntimeException e) {
      span.tag(GenAi.ERROR_TYPE, e.getClass().getName()).error(e).end();
      throw e;
    }
    outcome.whenComplete((value, failure) -> {
      if (failure != null) {
        Throwable cause = AsyncFailures.unwrap(failure);
        span.tag(GenAi.ERROR_TYPE, cause.getClass().getName()).error(cause);
      } else {
        String error = errorType.apply(value);
        if (error != null) {
          span.tag(GenAi.ERROR_TYPE, error);
        }
        if (traces.settings().captureContent() && result.apply(value) != null) {
          span.tag(GenAi.TOOL_CALL_RESULT, result.apply(value));
        }
      }
      span.end();
    });
    return outcome;
  }

  /** For a remote call's task start: when it began to wait for a worker. */
  public ExecutionListener remoteStartListener() {
    return execution -> {
      if (traces.enabled()) {
        execution.setVariableLocal(REMOTE_STARTED, Instant.now().toString());
      }
    };
  }

  /**
   * For a remote call's task end, before the call is observed: the span, from the task's start to its completion.
   *
   * @param callId, tool, error, worker the names of the task's local variables with the call id, the tool, the error a
   *     worker reported and the worker's id
   */
  public ExecutionListener remoteEndListener(String callId, String tool, String error, String worker) {
    return execution -> {
      if (execution.isCanceled()) {
        return;
      }
      RunTrace run = traces.find(execution.getProcessInstanceId()).orElse(null);
      Object started = execution.getVariableLocal(REMOTE_STARTED);
      if (run == null || !(started instanceof String since)) {
        return;
      }
      Instant from = Instant.parse(since);
      String toolName = String.valueOf(execution.getVariableLocal(tool));
      String id = String.valueOf(execution.getVariableLocal(callId));
      boolean failed = execution.getVariableLocal(error) != null;
      Object workerId = worker == null ? null : execution.getVariableLocal(worker);
      AfterCommit.run(() -> {
        TraceSpan span = start(execution.getProcessInstanceId(), run, toolName, id, from)
            .tag(Extension.TOOL_LANE, "remote");
        if (workerId != null) {
          span.tag(Extension.REMOTE_WORKER, workerId.toString());
        }
        if (failed) {
          span.tag(GenAi.ERROR_TYPE, "tool_error");
        }
        span.end();
      });
    };
  }

  private TraceSpan start(String runId, RunTrace run, String tool, String callId, Instant startedAt) {
    return traces.start(runId, run, null, GenAi.EXECUTE_TOOL + " " + tool, false, startedAt)
        .tag(GenAi.OPERATION_NAME, GenAi.EXECUTE_TOOL)
        .tag(GenAi.TOOL_NAME, tool)
        .tag(GenAi.TOOL_TYPE, "function")
        .tag(GenAi.TOOL_CALL_ID, callId);
  }
}
