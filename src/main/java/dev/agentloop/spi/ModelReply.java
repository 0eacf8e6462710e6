package dev.agentloop.spi;

import java.util.List;

/**
 * What a model answered. Nothing here is trusted: text may be empty or huge, tool calls may name
 * tools that do not exist or carry arguments that are not JSON; the agent interprets it.
 *
 * @param text the reply's content meant for the user or the loop, without the model's reasoning
 * @param reasoning what a reasoning model thought before replying ({@code <think>} blocks, DeepSeek's
 *     {@code reasoning_content}, Anthropic's thinking blocks); empty when it gave none. Kept apart so that
 *     it never becomes a plan step, an answer or text sent back to the model
 * @param usage the tokens the provider reported for the call (prompt and completion apart), each
 *     {@code null} where it reported none
 * @param stop why the model stopped writing; a {@link StopReason#cut() cut} reply is not complete
 * @param model the model the call is priced and counted by (see {@code agentloop.llm.prices}), {@code null}
 *     where the adapter knows none
 * @param response what the provider said of its response (its id, the model that wrote it), for traces;
 *     {@link Response#UNREPORTED} where it said nothing
 */
public record ModelReply(String text, String reasoning, List<ToolCall> toolCalls, TokenCounts usage,
    StopReason stop, String model, Response response) {

  /**
   * What a provider said of one response, as traces show it ({@code gen_ai.response.id}, {@code gen_ai.response.model}).
   *
   * @param id the provider's id of the response, {@code null} where it gave none
   * @param model the model that wrote the response, as the provider named it; {@code null} where it did not
   */
  public record Response(String id, String model) {

    /** The provider said nothing of its response. */
    public static final Response UNREPORTED = new Response(null, null);

    public Response {
      id = id == null || id.isBlank() ? null : id;
      model = model == null || model.isBlank() ? null : model;
    }
  }

  public ModelReply {
    text = text == null ? "" : text;
    reasoning = reasoning == null ? "" : reasoning;
    toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
    usage = usage == null ? TokenCounts.UNREPORTED : usage;
    stop = stop == null ? StopReason.UNREPORTED : stop;
    model = model == null || model.isBlank() ? null : model;
    response = response == null ? Response.UNREPORTED : response;
  }

  /** A reply whose provider said nothing of the response itself. */
  public ModelReply(String text, String reasoning, List<ToolCall> toolCalls, TokenCounts usage, StopReason stop,
      String model) {
    this(text, reasoning, toolCalls, usage, stop, model, Response.UNREPORTED);
  }

  /** A reply of a model the adapter does not name. */
  public ModelReply(String text, String reasoning, List<ToolCall> toolCalls, TokenCounts usage, StopReason stop) {
    this(text, reasoning, toolCalls, usage, stop, null);
  }

  /** A reply whose provider did not say why it stopped. */
  public ModelReply(String text, String reasoning, List<ToolCall> toolCalls, TokenCounts usage) {
    this(text, reasoning, toolCalls, usage, StopReason.UNREPORTED);
  }

  /** A reply for which the provider reported only a total; 0: it reported nothing. */
  public ModelReply(String text, String reasoning, List<ToolCall> toolCalls, long tokens) {
    this(text, reasoning, toolCalls, tokens == 0 ? TokenCounts.UNREPORTED : new TokenCounts(null, null, tokens));
  }

  /** Total tokens the provider reported for the call, 0 when it reported none: what budgets count. */
  public long tokens() {
    return usage.totalOrZero();
  }

  /** A reply without reasoning. */
  public ModelReply(String text, List<ToolCall> toolCalls, long tokens) {
    this(text, "", toolCalls, tokens);
  }
}
