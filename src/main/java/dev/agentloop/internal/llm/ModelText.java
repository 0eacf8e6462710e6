package dev.agentloop.internal.llm;

import dev.agentloop.spi.ModelRequest;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Where a model adapter hands the text of a reply while it arrives, before the reply is whole: what a run's
 * followers see as the model writes ({@code text} events of {@code /api/runs/{id}/events}). The request says which
 * run, turn and purpose the text is for. Text handed here is a preview: the step the reply becomes is the truth.
 * When a call that already handed text fails (a stream cut, an error mid-stream, a time-out, a cancel), the adapter
 * says so ({@link #dropped}) and nothing of that text becomes an answer; a retry's text starts again from its
 * beginning.
 *
 * <p>Called on the threads that read replies, one call at a time per model call. Implementations are thread-safe and
 * return at once: they must never wait for a slow reader.
 */
public interface ModelText {

  /** Hands text to nobody. */
  ModelText NONE = new ModelText() {
    @Override
    public void arrived(ModelRequest request, String text) {}

    @Override
    public void dropped(ModelRequest request, String why) {}
  };

  /** A piece of the reply's text (never reasoning, never a tool call's arguments), in the order it came. */
  void arrived(ModelRequest request, String text);

  /** The text handed for this call so far will become nothing: the call failed. */
  void dropped(ModelRequest request, String why);

  /**
   * One that asks {@code target} for the real one until it has it: for a model built before what reads its text (the
   * events of runs are built after the model). Text before then goes to nobody.
   */
  static ModelText later(Supplier<ModelText> target) {
    Objects.requireNonNull(target, "target");
    return new ModelText() {
      private volatile ModelText found;

      @Override
      public void arrived(ModelRequest request, String text) {
        resolved().arrived(request, text);
      }

      @Override
      public void dropped(ModelRequest request, String why) {
        resolved().dropped(request, why);
      }

      private ModelText resolved() {
        ModelText known = found;
        if (known == null) {
          known = target.get();
          found = known;
        }
        return known == null ? NONE : known;
      }
    };
  }
}
