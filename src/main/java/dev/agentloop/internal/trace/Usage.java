package dev.agentloop.internal.trace;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What one completed task cost, added to the run's counters with its steps.
 *
 * @param costs the cost of each step written with it, by position (a shorter list or {@code null}
 *     entries: steps without a cost of their own, e.g. the actions a model call wrote after its thought)
 * @param prompt what the model received, for the task that called a model, else {@code null}
 */
public record Usage(int modelCalls, int toolCalls, long tokens, List<StepCost> costs, SentPrompt prompt) {

  public static final Usage NONE = new Usage(0, 0, 0);

  public Usage {
    // null entries are meaningful here, which List.copyOf refuses
    costs = costs == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(costs));
  }

  public Usage(int modelCalls, int toolCalls, long tokens) {
    this(modelCalls, toolCalls, tokens, List.of(), null);
  }

  public static Usage modelCall(long tokens) {
    return new Usage(1, 0, tokens);
  }

  /** One model call, its cost kept with the first step it wrote and the prompt it was sent. */
  public static Usage modelCall(StepCost cost, SentPrompt prompt) {
    long tokens = cost.totalTokens() == null ? 0 : cost.totalTokens();
    return new Usage(1, 0, tokens, Collections.singletonList(cost), prompt);
  }

  public static Usage toolCall() {
    return new Usage(0, 1, 0);
  }

  /** Tool calls, the cost of each observation by position ({@code null}: no tool ran for it). */
  public static Usage toolCalls(int ran, List<StepCost> costs) {
    return new Usage(0, ran, 0, costs, null);
  }

  StepCost costOf(int position) {
    return position < costs.size() ? costs.get(position) : null;
  }
}
