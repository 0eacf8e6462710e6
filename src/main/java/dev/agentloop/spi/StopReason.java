package dev.agentloop.spi;

import java.util.Objects;

/**
 * Why the model stopped writing its reply, as its provider said it: OpenAI's {@code finish_reason}
 * ({@code stop}, {@code tool_calls}, {@code length} …), Anthropic's {@code stop_reason}
 * ({@code end_turn}, {@code tool_use}, {@code max_tokens} …), or LangChain4j's {@code FinishReason}
 * for a model AgentLoop does not call itself. A reply {@link #cut() cut} at the output limit is not
 * complete: its text ends mid-sentence, its last tool call's arguments may end mid-value. A reply the provider
 * {@link #withheld() withheld} (a content filter, a model's refusal) is no answer either, and a
 * {@link #paused() paused} one is a turn the model has not finished.
 *
 * @param value the provider's own word, {@code ""} when it sent none
 * @param cut whether the reply ended because it reached the most tokens a reply may have
 * @param limit for a cut reply, what the limit was, e.g. {@code max tokens 1024}; {@code ""} otherwise
 * @param remedy for a cut reply, the setting that raises the limit, e.g. {@code raise
 *     agentloop.llm.anthropic.max-tokens}; {@code ""} otherwise
 */
public record StopReason(String value, boolean cut, String limit, String remedy) {

  /** The provider said nothing about why it stopped (a scripted model, an endpoint that omits it). */
  public static final StopReason UNREPORTED = new StopReason("", false, "", "");

  public StopReason {
    value = value == null ? "" : value;
    limit = Objects.requireNonNullElse(limit, "");
    remedy = Objects.requireNonNullElse(remedy, "");
    if (cut && (limit.isBlank() || remedy.isBlank())) {
      throw new IllegalArgumentException("a cut reply's stop reason says what its limit was and how to raise it");
    }
  }

  /** A reply that ended for any reason other than its output limit. */
  public static StopReason of(String value) {
    return value == null || value.isEmpty() ? UNREPORTED : new StopReason(value, false, "", "");
  }

  /** A reply cut at its output limit. */
  public static StopReason cut(String value, String limit, String remedy) {
    return new StopReason(value, true, limit, remedy);
  }

  /** OpenAI's {@code finish_reason} when its content filter took the reply (also LangChain4j's word for it). */
  public static final String CONTENT_FILTER = "content_filter";
  /** Anthropic's {@code stop_reason} when the model declined; OpenAI's adapters use it for a message's refusal. */
  public static final String REFUSAL = "refusal";
  /** Anthropic's {@code stop_reason} when it paused a long turn, to be sent back so that the model goes on. */
  public static final String PAUSE_TURN = "pause_turn";

  /** Whether the provider withheld the reply: filtered it or the model refused. Such a reply is never an answer. */
  public boolean withheld() {
    return CONTENT_FILTER.equals(value) || REFUSAL.equals(value);
  }

  /** Whether the provider paused the turn: the model has not finished it. */
  public boolean paused() {
    return PAUSE_TURN.equals(value);
  }

  /** What a person reads when a withheld reply stops a run: what happened, in words, and what to do. */
  public String withheldMessage() {
    return (REFUSAL.equals(value) ? "The model refused" : "The provider filtered the answer") + " (stop reason '"
        + value + "'): nothing of the reply was used. Guide the agent with a note, edit a step, or stop the run.";
  }

  /** What a person reads when a cut reply stops a run: what happened, the limit, and what to change. */
  public String cutMessage() {
    return "The model's reply hit its output limit (" + limit + "): " + remedy + ", or ask for shorter replies in the"
        + " agent's systemPrompt. The reply was cut" + (value.isEmpty() ? "" : " (stop reason '" + value + "')")
        + " and was not used.";
  }
}
