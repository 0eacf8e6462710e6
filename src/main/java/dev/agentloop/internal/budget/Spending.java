package dev.agentloop.internal.budget;

/**
 * What a run has spent: the one type for a budget's use. For the budget's check it is what the run and the runs it
 * called spent together (its tree); each run's own share is kept with it as well. Immutable.
 *
 * @param turns model turns on the run's active path (never summed over a tree: each run has its own path)
 */
public record Spending(int turns, int modelCalls, int toolCalls, long tokens) {

  public static final Spending NONE = new Spending(0, 0, 0, 0);

  public Spending {
    if (turns < 0 || modelCalls < 0 || toolCalls < 0 || tokens < 0) {
      throw new IllegalArgumentException("spending cannot be negative: turns " + turns + ", modelCalls " + modelCalls
          + ", toolCalls " + toolCalls + ", tokens " + tokens);
    }
  }

  /** The calls and tokens of {@code other} added; the turns stay this run's. */
  public Spending plus(Spending other) {
    return new Spending(turns, modelCalls + other.modelCalls, toolCalls + other.toolCalls, tokens + other.tokens);
  }

  /** The same calls and tokens at another number of turns. */
  public Spending atTurns(int count) {
    return new Spending(count, modelCalls, toolCalls, tokens);
  }
}
