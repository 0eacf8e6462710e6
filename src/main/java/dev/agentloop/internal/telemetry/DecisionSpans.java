package dev.agentloop.internal.telemetry;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.camunda.bpm.engine.delegate.DelegateTask;
import org.camunda.bpm.engine.delegate.TaskListener;
import org.camunda.bpm.engine.impl.context.Context;

/**
 * People's decisions as spans of the run's trace, AgentLoop's extension of the GenAI conventions: a
 * {@code human_decision {decision}} span per decision, with who decided, what, where, and how long the run waited.
 * A review task's span starts when the task was created and ends when it was completed, so the trace shows where the
 * run waited for a person; a decision through the REST API (an edit, a regenerate, a stop) is a span of its own
 * moment. Made only once the decision commits. Thread-safe.
 */
public class DecisionSpans {

  /** The form fields of a review task that hold its decision: {@code decision}, or one per call of an approval. */
  private static final String DECISION = "decision";
  private static final int MAX_CALLS = 20;
  /** The fields of AgentLoop's review forms in which a person says why. */
  private static final List<String> REASONS = List.of("reason", "feedback", "editReason", "note", "reason1");

  private final RunTraces traces;

  public DecisionSpans(RunTraces traces) {
    this.traces = traces;
  }

  /** For a review task's completion: the span of the person's decision, once it commits. */
  public TaskListener onReviewCompleted() {
    return task -> {
      RunTrace run = traces.find(task.getProcessInstanceId()).orElse(null);
      if (run == null) {
        return;
      }
      String decision = decision(task);
      String user = user(task);
      Instant created = task.getCreateTime() == null ? null : task.getCreateTime().toInstant();
      String reason = traces.settings().captureContent() ? reason(task) : null;
      String runId = task.getProcessInstanceId();
      String taskKey = task.getTaskDefinitionKey();
      AfterCommit.run(() -> {
        Instant now = Instant.now();
        TraceSpan span = start(runId, run, decision, user, created).tag(Extension.SOURCE, "task")
            .tag(Extension.TASK, taskKey);
        if (created != null) {
          span.tag(Extension.WAITED, Math.max(0, now.toEpochMilli() - created.toEpochMilli()) / 1000.0);
        }
        if (reason != null) {
          span.tag(Extension.REASON, reason);
        }
        span.end();
      });
    };
  }

  /** A decision through the REST API ({@code edit}, {@code regenerate}, {@code stop}) on the run, by {@code user}. */
  public void decided(String runId, String decision, String user, String reason) {
    RunTrace run = traces.find(runId).orElse(null);
    if (run == null) {
      return;
    }
    AfterCommit.run(() -> {
      TraceSpan span = start(runId, run, decision, user, null).tag(Extension.SOURCE, "api");
      if (traces.settings().captureContent() && reason != null && !reason.isBlank()) {
        span.tag(Extension.REASON, reason);
      }
      span.end();
    });
  }

  private TraceSpan start(String runId, RunTrace run, String decision, String user, Instant startedAt) {
    return traces.start(runId, run, null, Extension.HUMAN_DECISION + " " + decision, false, startedAt)
        .tag(Extension.OPERATION_NAME, Extension.HUMAN_DECISION)
        .tag(Extension.DECISION, decision)
        .tag(Extension.USER, user);
  }

  /**
   * What the form decided: its {@code decision}, or for an approval the decisions on its calls ({@code decision1} …),
   * each once, in the order of the calls, e.g. {@code approve} or {@code approve,reject}; {@code answer} for a task
   * without one (ask-human).
   */
  private static String decision(DelegateTask task) {
    Object single = task.getVariable(DECISION);
    if (single != null) {
      return single.toString();
    }
    Set<String> perCall = new LinkedHashSet<>();
    for (int n = 1; n <= MAX_CALLS; n++) {
      Object call = task.getVariableLocal(DECISION + n);
      if (call == null) {
        break;
      }
      perCall.add(call.toString());
    }
    // a task without a decision field is ask-human's: the person answered
    return perCall.isEmpty() ? "answer" : String.join(",", new ArrayList<>(perCall));
  }

  private static String reason(DelegateTask task) {
    for (String field : REASONS) {
      if (task.getVariableLocal(field) instanceof String text && !text.isBlank()) {
        return text;
      }
    }
    return null;
  }

  /** As the reviews see it: who is logged in, else the assignee. */
  private static String user(DelegateTask task) {
    String user = Context.getCommandContext() == null ? null : Context.getCommandContext().getAuthenticatedUserId();
    if (user == null) {
      user = task.getAssignee();
    }
    return user == null ? "unknown user" : user;
  }
}
