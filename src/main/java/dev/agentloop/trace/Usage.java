package dev.agentloop.trace;

/** What one completed task cost, added to the run's counters with its steps. */
public record Usage(int modelCalls, int toolCalls, long tokens) {

  public static final Usage NONE = new Usage(0, 0, 0);

  public static Usage modelCall(long tokens) {
    return new Usage(1, 0, tokens);
  }

  public static Usage toolCall() {
    return new Usage(0, 1, 0);
  }
}
