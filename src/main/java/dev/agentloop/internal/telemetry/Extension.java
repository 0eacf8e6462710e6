package dev.agentloop.internal.telemetry;

/**
 * AgentLoop's own span names and attributes beside the GenAI conventions, all under {@code agentloop.}: the run, the
 * step a model call is for, and people's decisions (docs/observability.md lists them).
 */
final class Extension {

  /** The span of a person's decision, named {@code human_decision {decision}}. */
  static final String HUMAN_DECISION = "human_decision";

  static final String OPERATION_NAME = "agentloop.operation.name";
  static final String RUN_ID = "agentloop.run.id";
  /** {@code plan} or {@code think}: what a model call was for. */
  static final String STEP = "agentloop.step";
  /**
   * The model turn a model call answers, counted on the run's active path: not a conversation's turn (the API's
   * {@code turns}), which a run's follow-up questions open.
   */
  static final String MODEL_TURN = "agentloop.model_turn";
  /** An agent's call of another agent: the run that answers it. */
  static final String CHILD_RUN_ID = "agentloop.child_run.id";
  /** Where a tool ran: {@code embedded} (this node's tool threads) or {@code remote} (an external-task worker). */
  static final String TOOL_LANE = "agentloop.tool.lane";
  static final String REMOTE_WORKER = "agentloop.tool.worker";

  static final String DECISION = "agentloop.human.decision";
  static final String USER = "agentloop.human.user";
  /** The user task decided in ({@code approveAction}, {@code reviewAnswer} …); absent for the REST API. */
  static final String TASK = "agentloop.human.task";
  /** {@code task} (Tasklist or the task API) or {@code api} (AgentLoop's REST API, Cockpit). */
  static final String SOURCE = "agentloop.human.source";
  /** Seconds the run waited for the person: from the task's creation to the decision. */
  static final String WAITED = "agentloop.human.wait.duration";
  static final String REASON = "agentloop.human.reason";

  private Extension() {}
}
