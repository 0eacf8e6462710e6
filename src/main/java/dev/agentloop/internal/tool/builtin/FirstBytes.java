package dev.agentloop.internal.tool.builtin;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

/**
 * Takes the first {@code maxBytes} of a response body and cancels the rest, so that a huge or endless
 * body costs no more than that. Used by one exchange at a time, as the HTTP client's subscribers are.
 */
final class FirstBytes implements HttpResponse.BodySubscriber<FirstBytes.Body> {

  /** The body's first bytes, and whether there were more. */
  record Body(byte[] bytes, boolean cut) {}

  private final int maxBytes;
  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final CompletableFuture<Body> body = new CompletableFuture<>();
  private Flow.Subscription subscription;

  FirstBytes(int maxBytes) {
    this.maxBytes = maxBytes;
  }

  @Override
  public CompletionStage<Body> getBody() {
    return body;
  }

  @Override
  public void onSubscribe(Flow.Subscription subscription) {
    this.subscription = subscription;
    subscription.request(1);
  }

  @Override
  public void onNext(List<ByteBuffer> buffers) {
    for (ByteBuffer buffer : buffers) {
      int room = maxBytes - bytes.size();
      if (buffer.remaining() > room) {
        byte[] part = new byte[room];
        buffer.get(part);
        bytes.writeBytes(part);
        subscription.cancel();
        body.complete(new Body(bytes.toByteArray(), true));
        return;
      }
      byte[] all = new byte[buffer.remaining()];
      buffer.get(all);
      bytes.writeBytes(all);
    }
    subscription.request(1);
  }

  @Override
  public void onError(Throwable error) {
    body.completeExceptionally(error);
  }

  @Override
  public void onComplete() {
    body.complete(new Body(bytes.toByteArray(), false));
  }
}
