package dev.agentloop.internal.llm;

/**
 * One streamed model call of a wire, for {@link AsyncWire#call(java.util.function.Supplier, ReplyStream)}: asks for
 * a stream, reads its server-sent events as they come, and in the end hands over the reply the endpoint would have
 * answered without a stream, so that the rest of the wire reads a streamed reply exactly as an unstreamed one. One
 * instance per call; its methods are called one at a time, in the order of the events.
 */
public interface ReplyStream {

  /** The request's JSON body, as the wire wrote it for one reply, changed to ask for a stream. */
  String ask(String body);

  /**
   * One event of the stream, in order.
   *
   * @param name the event's {@code event:} field, or "" when it has none
   * @param data its {@code data:} lines joined by newlines
   * @throws ErrorKeepingHttpClient.NotAReply when the event is not the wire's (data that is no JSON)
   */
  void event(String name, String data);

  /**
   * The stream ended: the body the endpoint would have answered without a stream — the reply, or the error the
   * stream carried instead.
   *
   * @throws ErrorKeepingHttpClient.NotAReply when the stream ended before its end (a retry may get the whole reply)
   */
  String reply();
}
