package dev.agentloop.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * A run as people see it: its status from both the step store and the engine (a person to act, an
 * incident), the newest final answer, and what it has used so far.
 *
 * @param agentVersion the version of its agent the run is on (Camunda's version of the agent's process definition),
 *     the one it ended on once it ended; a run moved to another version says the new one; {@code null} where
 *     neither the engine nor its history knows the run's instance any more
 * @param waitingFor the user tasks the run waits on, or {@code follow-up} when a conversation waits for its
 *     next question (empty unless WAITING)
 * @param incident the incident message when FAILED, else {@code null}
 * @param version the version of the run's head: the {@code baseVersion} of an edit made on what was read
 * @param restartedFrom the run this one was restarted from (with the step, who and why), else {@code null}
 * @param restarts the runs restarted from this one, oldest first
 * @param activeStep what the run does at this moment (a model call, tool calls, a person's task), {@code null}
 *     when it has ended or is between two steps
 * @param budgets what it used of its agent's budgets, used / limit
 * @param costs the latency and tokens of its calls, summed: the conversation's, which its turns' costs add up to
 * @param money what its model calls cost by the price table, {@code null} without one ({@code agentloop.llm.prices})
 * @param endedBy who ended a finished run by a decision — accepted its answer, rejected its plan,
 *     stopped it ({@code agentloop} when the agent accepted its answer automatically) — else {@code null}
 * @param turns the run's turns, one per question asked, oldest first (one for a one-shot run), each with its cost
 * @param conversationId the id its client started it under (the process instance's business key), else {@code null}
 * @param calledBy the agent run whose call of an agent this run answers (a child run's parent), else {@code null}
 * @param answerData the newest final answer's fields, a JSON object valid against the run's answer schema (the
 *     agent's {@code answerSchema}, or the one its start gave); {@code null} when the run has no answer schema or no
 *     answer yet. Never an empty object in place of fields that did not validate: such an answer is no answer
 */
public record RunView(
    String id,
    String agent,
    Integer agentVersion,
    String question,
    RunStatus status,
    String statusReason,
    String finalAnswer,
    List<String> waitingFor,
    String incident,
    int steps,
    int modelCalls,
    int toolCalls,
    long tokens,
    Instant createdAt,
    Instant endedAt,
    int version,
    String restartedFrom,
    Integer restartedFromStep,
    String restartedBy,
    String restartReason,
    List<String> restarts,
    ActiveStep activeStep,
    BudgetUse budgets,
    RunCosts costs,
    RunMoney money,
    String endedBy,
    List<ConversationTurn> turns,
    String conversationId,
    String calledBy,
    JsonNode answerData) {

  /** What {@link #waitingFor} says while a conversation waits for its next question. */
  public static final String FOLLOW_UP = "follow-up";
}
