package dev.agentloop.internal.llm;

import dev.agentloop.spi.ModelRequest;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The text of one streamed model call on its way to {@link ModelText}: remembers whether any was handed on, so that
 * a failed call says its text was dropped only when there was some. Used by one call, one event at a time.
 */
public final class StreamedText {

  private static final Logger LOG = LoggerFactory.getLogger(StreamedText.class);

  private final ModelText target;
  private final ModelRequest request;
  private volatile boolean handed;

  public StreamedText(ModelText target, ModelRequest request) {
    this.target = Objects.requireNonNull(target, "target");
    this.request = Objects.requireNonNull(request, "request");
  }

  /** A piece of the reply's text; an empty one is none. */
  public void arrived(String text) {
    if (text == null || text.isEmpty()) {
      return;
    }
    handed = true;
    try {
      target.arrived(request, text);
    } catch (RuntimeException e) {
      // a follower's trouble is never the model call's
      LOG.debug("text of run {} not handed on: {}", request.run().runId(), e.toString());
    }
  }

  /** The call failed: its text, if any was handed on, is dropped. */
  public void failed(Throwable why) {
    if (!handed) {
      return;
    }
    handed = false;
    try {
      target.dropped(request, why == null ? "the call failed" : String.valueOf(why.getMessage()));
    } catch (RuntimeException e) {
      LOG.debug("dropped text of run {} not told: {}", request.run().runId(), e.toString());
    }
  }
}
