package dev.agentloop.api;

import java.time.Instant;
import java.util.List;

/**
 * What a run is doing right now, from the engine's state: the activity its token is in, since when,
 * and what that means for people.
 *
 * @param kind {@code model} (a model call: plan or think), {@code tools} (tool calls in act),
 *     {@code remote-tool} (a call a remote worker serves), {@code person} (a user task),
 *     {@code retry} (a failed call waiting for its next try), {@code agents} (child runs answer calls of
 *     other agents), or {@code engine} (anything else)
 * @param activity the BPMN element id, e.g. {@code think}
 * @param activityName its name in the diagram, e.g. "Review the answer"
 * @param tools for {@code tools} and {@code remote-tool}: the tools being called
 * @param taskId for {@code person}: the user task, to open it in Tasklist
 * @param since when the token reached the activity
 * @param seconds how long ago that was, by the engine's clock, when this was read
 * @param problem for {@code retry}: what went wrong last time; for {@code person} in {@code agentStuck}: why the run
 *     left its loop, e.g. {@code BUDGET_EXHAUSTED: The run's budget is used up: …}
 * @param children for {@code agents}: the child runs that answer the calls, and what each does right now
 */
public record ActiveStep(String kind, String activity, String activityName, List<String> tools, String taskId,
    Instant since, long seconds, String problem, List<Child> children) {

  public ActiveStep {
    tools = tools == null ? List.of() : List.copyOf(tools);
    children = children == null ? List.of() : List.copyOf(children);
  }

  /**
   * A child run that answers a call of another agent, while its caller waits for it.
   *
   * @param activeStep what the child does right now, {@code null} between two of its steps
   */
  public record Child(String runId, String agent, ActiveStep activeStep) {}
}
