package dev.agentloop.internal.trace;

import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.budget.Budget;
import dev.agentloop.internal.budget.Spending;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A run as the step store keeps it: identity, question, lifecycle, head, what it has used itself, and where it
 * stands in a tree of agents that call agents.
 *
 * @param modelCalls the run's own model calls (those of the runs it called are in {@link #tree})
 * @param budget the run's budget where it is not its agent's: raised by a person, or capped by what its caller had
 *     left when it started the run; {@code null}: its agent's settings
 * @param answerSchema the answer schema its start gave (JSON), over the agent's own; {@code null}: the agent's
 */
public record RunRecord(
    String runId,
    String agentKey,
    String question,
    RunStatus status,
    String statusReason,
    RunHead head,
    int modelCalls,
    int toolCalls,
    long tokens,
    Instant createdAt,
    Instant endedAt,
    Restart restartedFrom,
    Budget budget,
    Tree tree,
    String answerSchema) {

  public RunRecord {
    Objects.requireNonNull(tree, "tree");
  }

  /** A run that no agent called and that called none, on its agent's budget and answer schema. */
  public RunRecord(String runId, String agentKey, String question, RunStatus status, String statusReason, RunHead head,
      int modelCalls, int toolCalls, long tokens, Instant createdAt, Instant endedAt, Restart restartedFrom) {
    this(runId, agentKey, question, status, statusReason, head, modelCalls, toolCalls, tokens, createdAt, endedAt,
        restartedFrom, null, Tree.NONE, null);
  }

  /** Where a restarted run came from, who restarted it and why. */
  public record Restart(String runId, int fromStep, String by, String reason) {}

  /**
   * Where a run stands among agents that call agents.
   *
   * @param callers the runs whose calls led to this one, the top-level run first, its direct caller last; empty for a
   *     run no agent called
   * @param calls what the runs it called spent, theirs included, charged as they spent it (turns: 0)
   * @param lastBy the run whose call was charged to this one last, or {@code null}
   */
  public record Tree(List<String> callers, Spending calls, String lastBy) {

    public static final Tree NONE = new Tree(List.of(), Spending.NONE, null);

    public Tree {
      callers = List.copyOf(callers);
      Objects.requireNonNull(calls, "calls");
    }

    /** The run whose call this run answers, or {@code null}. */
    public String caller() {
      return callers.isEmpty() ? null : callers.get(callers.size() - 1);
    }
  }

  /** What the run itself spent, at the turn its head is in. */
  public Spending spent() {
    return new Spending(head.headTurn(), modelCalls, toolCalls, tokens);
  }

  /** The run's budget: its own where it has one, else its agent's. */
  public Budget budgetOr(Budget agents) {
    return budget == null ? agents : budget;
  }

  /** The record after an append moved its head and spent {@code usage}. */
  public RunRecord advancedTo(RunHead newHead, Usage usage) {
    return new RunRecord(runId, agentKey, question, status, statusReason, newHead, modelCalls + usage.modelCalls(),
        toolCalls + usage.toolCalls(), tokens + usage.tokens(), createdAt, endedAt, restartedFrom, budget, tree,
        answerSchema);
  }
}
