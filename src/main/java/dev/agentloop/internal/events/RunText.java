package dev.agentloop.internal.events;

import dev.agentloop.internal.llm.ModelText;
import dev.agentloop.spi.ModelRequest;
import java.util.Locale;

/**
 * The model's text as it arrives, to the followers of its run: what a streaming adapter hands on becomes
 * {@link RunEvent.TextDelta}s and, when its call fails, a {@link RunEvent.TextDropped}. Thread-safe.
 */
final class RunText implements ModelText {

  private final RunEvents events;

  RunText(RunEvents events) {
    this.events = events;
  }

  @Override
  public void arrived(ModelRequest request, String text) {
    events.publish(new RunEvent.TextDelta(request.run().runId(), purpose(request), request.run().turn(), text));
  }

  @Override
  public void dropped(ModelRequest request, String why) {
    events.publish(new RunEvent.TextDropped(request.run().runId(), purpose(request), request.run().turn(), why));
  }

  private static String purpose(ModelRequest request) {
    return request.purpose().name().toLowerCase(Locale.ROOT);
  }
}
