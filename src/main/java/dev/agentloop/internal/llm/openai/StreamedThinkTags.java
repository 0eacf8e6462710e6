package dev.agentloop.internal.llm.openai;

import java.util.function.Consumer;

/**
 * Keeps {@code <think>} blocks at the start of a streamed reply's content out of its text, as {@link ThinkTags} keeps
 * them out of the whole reply: pieces go on only once it is clear they are the reply's text. A block without the
 * opening tag (the chat template opened it) cannot be told from text while it streams; it goes on as text, and the
 * step the reply becomes shows it as reasoning. One per call, one piece at a time.
 */
final class StreamedThinkTags {

  private static final String OPEN = "<think>";
  private static final String CLOSE = "</think>";

  private enum Mode { UNDECIDED, THINKING, TEXT }

  private final Consumer<String> text;
  private final StringBuilder pending = new StringBuilder();
  private Mode mode = Mode.UNDECIDED;
  private boolean thought;

  StreamedThinkTags(Consumer<String> text) {
    this.text = text;
  }

  void piece(String content) {
    if (mode == Mode.TEXT) {
      text.accept(content);
      return;
    }
    pending.append(content);
    while (pending.length() > 0 && mode != Mode.TEXT && step()) {
      // each step consumes a block or decides
    }
  }

  /** Reads what is pending as far as it can; whether it got further. */
  private boolean step() {
    String held = pending.toString();
    if (mode == Mode.THINKING) {
      int close = held.indexOf(CLOSE);
      if (close < 0) {
        return false;
      }
      pending.delete(0, close + CLOSE.length());
      mode = Mode.UNDECIDED;
      thought = true;
      return true;
    }
    String start = held.stripLeading();
    if (start.isEmpty() || OPEN.startsWith(start)) {
      return false;
    }
    pending.setLength(0);
    if (start.startsWith(OPEN)) {
      pending.append(start.substring(OPEN.length()));
      mode = Mode.THINKING;
      return true;
    }
    // ThinkTags strips the whitespace between the reasoning and the reply
    mode = Mode.TEXT;
    text.accept(thought ? start : held);
    return true;
  }
}
