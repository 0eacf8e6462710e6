package dev.agentloop.internal.llm;

import dev.agentloop.spi.ModelRequest;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** What a model adapter handed on of its replies' text while they arrived: the pieces, and the calls it dropped. */
public final class RecordedText implements ModelText {

  private final List<String> pieces = new CopyOnWriteArrayList<>();
  private final List<String> dropped = new CopyOnWriteArrayList<>();

  @Override
  public void arrived(ModelRequest request, String text) {
    pieces.add(text);
  }

  @Override
  public void dropped(ModelRequest request, String why) {
    dropped.add(why);
  }

  public List<String> pieces() {
    return List.copyOf(pieces);
  }

  public String joined() {
    return String.join("", pieces);
  }

  /** Why each call that had handed on text was dropped, in order. */
  public List<String> dropped() {
    return List.copyOf(dropped);
  }
}
