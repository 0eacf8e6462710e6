package dev.agentloop.internal.llm;

import java.util.Objects;

/**
 * Whether a provider's adapter asks for its replies as streams ({@code agentloop.llm.stream}), and where the text
 * goes while it arrives. A streamed reply is put together into exactly the reply an unstreamed call gets.
 *
 * @param enabled whether to ask for streams
 * @param text where the text goes while it arrives; {@link ModelText#NONE} when nobody reads it
 */
public record Streaming(boolean enabled, ModelText text) {

  /** No streams: each reply comes as one body. */
  public static final Streaming OFF = new Streaming(false, ModelText.NONE);

  /** Streams, their text read by nobody until the reply is whole. */
  public static final Streaming ON = new Streaming(true, ModelText.NONE);

  public Streaming {
    Objects.requireNonNull(text, "text");
  }

  /** Streams, their text handed to {@code text} as it arrives. */
  public static Streaming to(ModelText text) {
    return new Streaming(true, text);
  }
}
