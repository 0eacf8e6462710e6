package dev.agentloop.internal.review;

import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Thought;
import dev.agentloop.spi.StopReason;
import java.util.List;

/**
 * The notice an answer review shows when a reply of the model in the answer's turn was withheld by the provider
 * (filtered, refused): that reply was no answer and was not used, and the reviewer should know the model got there
 * after it.
 */
final class WithheldReplies {

  private WithheldReplies() {}

  /** The notice, or {@code ""} when no reply of the current turn was withheld. */
  static String notice(RunState run) {
    List<Step> path = run.activePath();
    int turnStart = run.latestFollowUp().map(path::indexOf).orElse(0);
    long filtered = 0;
    long refused = 0;
    for (Step step : path.subList(turnStart, path.size())) {
      if (step.content() instanceof Thought thought && StopReason.of(thought.stopReason()).withheld()) {
        if (StopReason.REFUSAL.equals(thought.stopReason())) {
          refused++;
        } else {
          filtered++;
        }
      }
    }
    if (filtered + refused == 0) {
      return "";
    }
    return (filtered > 0 ? "The provider filtered " + replies(filtered) : "The model refused " + replies(refused))
        + (filtered > 0 && refused > 0 ? ", and the model refused " + replies(refused) : "")
        + " in this turn before this answer; " + (filtered + refused == 1 ? "it was" : "they were") + " not used."
        + " The steps below show what came of them.";
  }

  private static String replies(long count) {
    return count == 1 ? "a reply" : count + " replies";
  }
}
