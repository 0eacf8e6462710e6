package dev.agentloop.internal.llm;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Reads a {@code text/event-stream} body as it arrives and hands its events to a {@link ReplyStream}; completes with
 * the stream's {@link ReplyStream#reply()}. Holds no thread: the HTTP client calls it with each piece of the body,
 * on the wire's reply threads, and it asks for the next piece only when it has read one. Lines end with LF or CRLF;
 * comments ({@code :}) and fields other than {@code event} and {@code data} are skipped, as the SSE standard says;
 * an event still open when the body ends is dropped with it. What the stream throws fails the body and stops the
 * exchange.
 */
final class EventStreamSubscriber implements HttpResponse.BodySubscriber<String> {

  /** A line longer than this is no event of a model's stream: a runaway body, not read into memory. */
  private static final int MAX_LINE = 8 * 1024 * 1024;

  private final ReplyStream stream;
  private final CompletableFuture<String> body = new CompletableFuture<>();
  private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
      .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
  private final StringBuilder line = new StringBuilder();
  private final StringBuilder data = new StringBuilder();
  private ByteBuffer leftover = ByteBuffer.allocate(0);
  private String event = "";
  private boolean hasData;
  private Flow.Subscription subscription;

  EventStreamSubscriber(ReplyStream stream) {
    this.stream = stream;
  }

  @Override
  public CompletionStage<String> getBody() {
    return body;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (body.isDone()) {
      return;
    }
    try {
      for (ByteBuffer item : items) {
        decode(item, false);
      }
    } catch (RuntimeException | CharacterCodingException e) {
      body.completeExceptionally(e);
      subscription.cancel();
      return;
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable failure) {
    body.completeExceptionally(failure);
  }

  @Override
  public void onComplete() {
    if (body.isDone()) {
      return;
    }
    try {
      decode(ByteBuffer.allocate(0), true);
      body.complete(stream.reply());
    } catch (RuntimeException | CharacterCodingException e) {
      body.completeExceptionally(e);
    }
  }

  private void decode(ByteBuffer item, boolean last) throws CharacterCodingException {
    ByteBuffer in = leftover.hasRemaining() ? join(leftover, item) : item;
    CharBuffer out = CharBuffer.allocate(Math.max(64, in.remaining() + 1));
    CoderResult result = decoder.decode(in, out, last);
    if (result.isError()) {
      result.throwException();
    }
    if (last) {
      decoder.flush(out);
    }
    leftover = in.hasRemaining() ? copy(in) : ByteBuffer.allocate(0);
    out.flip();
    while (out.hasRemaining()) {
      char c = out.get();
      if (c == '\n') {
        line(stripCr());
      } else {
        line.append(c);
        if (line.length() > MAX_LINE) {
          throw new ErrorKeepingHttpClient.NotAReply("the endpoint's event stream has a line longer than "
              + MAX_LINE + " characters: no event of a model's stream", true);
        }
      }
    }
  }

  private String stripCr() {
    int end = line.length();
    String text = end > 0 && line.charAt(end - 1) == '\r' ? line.substring(0, end - 1) : line.toString();
    line.setLength(0);
    return text;
  }

  private void line(String text) {
    if (text.isEmpty()) {
      dispatch();
      return;
    }
    if (text.startsWith(":")) {
      return;
    }
    int colon = text.indexOf(':');
    String field = colon < 0 ? text : text.substring(0, colon);
    String value = colon < 0 ? "" : text.substring(colon + 1);
    value = value.startsWith(" ") ? value.substring(1) : value;
    if (field.equals("event")) {
      event = value;
    } else if (field.equals("data")) {
      if (hasData) {
        data.append('\n');
      }
      data.append(value);
      hasData = true;
    }
  }

  private void dispatch() {
    if (hasData) {
      stream.event(event, data.toString());
    }
    event = "";
    data.setLength(0);
    hasData = false;
  }

  private static ByteBuffer join(ByteBuffer first, ByteBuffer second) {
    ByteBuffer both = ByteBuffer.allocate(first.remaining() + second.remaining());
    both.put(first).put(second);
    both.flip();
    return both;
  }

  private static ByteBuffer copy(ByteBuffer rest) {
    ByteBuffer copy = ByteBuffer.allocate(rest.remaining());
    copy.put(rest);
    copy.flip();
    return copy;
  }
}
