package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.telemetry.DecisionSpans;
import dev.agentloop.internal.trace.Decision;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.MigrationOrder;
import dev.agentloop.internal.trace.MoveOutcome;
import dev.agentloop.internal.trace.RunMove;
import dev.agentloop.internal.trace.RunState;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.impl.util.ClockUtil;
import org.springframework.context.ApplicationEventPublisher;

/**
 * The move itself, in the transaction of {@link RunMigration}, once the check found the run at a safe point:
 * Camunda migrates the instance by the plan (its user task, timers, event subscriptions and variables carry over;
 * listeners and input/output mappings of the diagram's own are skipped, AgentLoop's run), the run-wide settings the
 * diagram's timers and gateways read are set to the new version's, and the move is a decision on the step the run
 * waited at: who, when, why, from which version to which. Nothing of the trace changes: the steps, turns, budgets
 * used and the trace context stay the run's. Thread-safe.
 */
final class RunMoves {

  private final RuntimeService runtime;
  private final DecisionLog decisions;
  private final DecisionSpans spans;
  private final ApplicationEventPublisher events;

  RunMoves(RuntimeService runtime, DecisionLog decisions, DecisionSpans spans, ApplicationEventPublisher events) {
    this.runtime = runtime;
    this.decisions = decisions;
    this.spans = spans;
    this.events = events;
  }

  RunMove migrate(RunMigration.Assessment assessment, MigrationOrder order) {
    RunState state = assessment.state();
    String runId = state.runId();
    int from = assessment.position().version();
    runtime.newMigration(assessment.target().plan().plan()).processInstanceIds(runId)
        .skipCustomListeners().skipIoMappings().execute();
    runtime.setVariables(runId, settingsVariables(assessment.target().settings(), assessment.position().called()));
    int stepNo = Objects.requireNonNullElse(state.head().headStep(), 0);
    Decision decision = decisions.recordMigration(runId, stepNo, order.requestedBy(), order.reason(), from,
        order.toVersion());
    spans.decided(runId, Decision.MIGRATE, order.requestedBy(), order.reason());
    events.publishEvent(new RunMigrated(runId, order.agentKey(), decision));
    return new RunMove(runId, MoveOutcome.MIGRATED, from, "moved from version " + from + " to version "
        + order.toVersion() + ": it " + assessment.verdict().words(), ClockUtil.getCurrentTime().toInstant());
  }

  /**
   * What {@code RunLifecycle} set from the settings when the run started, now from the new version's: the agent
   * loop's run time (read each time the loop is entered; a timer already set keeps its due date), and whether and
   * how long the run waits for follow-up questions after its next accepted answer.
   */
  private static Map<String, Object> settingsVariables(AgentSettings settings, boolean called) {
    Map<String, Object> variables = new HashMap<>();
    variables.put(ReactAgentProcess.MAX_RUN_TIME.name(), settings.limits().maxRunTime().toString());
    variables.put(ReactAgentProcess.CONVERSATION.name(), settings.conversation().enabled() && !called);
    variables.put(ReactAgentProcess.CONVERSATION_IDLE.name(), settings.conversation().idle().toString());
    return variables;
  }
}
