package dev.agentloop.internal.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK's client transport, unchanged, that remembers the requests the client sent: the SDK client makes up its
 * JSON-RPC ids and has no call to cancel a request, so a test takes the id of its {@code tools/call} here and sends
 * MCP's {@code notifications/cancelled} through the same transport (the same session) itself.
 */
final class RecordingTransport implements McpClientTransport {

  private final McpClientTransport delegate;
  private final List<McpSchema.JSONRPCRequest> sent = new CopyOnWriteArrayList<>();

  RecordingTransport(McpClientTransport delegate) {
    this.delegate = delegate;
  }

  /** The id of the newest request with this method, or {@code null}. */
  Object lastRequestId(String method) {
    for (int i = sent.size() - 1; i >= 0; i--) {
      if (sent.get(i).method().equals(method)) {
        return sent.get(i).id();
      }
    }
    return null;
  }

  /** Sends MCP's cancellation of a request. */
  void cancel(Object requestId, String reason) {
    delegate.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION, "notifications/cancelled",
        java.util.Map.of("requestId", requestId, "reason", reason))).block();
  }

  @Override
  public Mono<Void> connect(Function<Mono<McpSchema.JSONRPCMessage>, Mono<McpSchema.JSONRPCMessage>> handler) {
    return delegate.connect(handler);
  }

  @Override
  public void setExceptionHandler(Consumer<Throwable> handler) {
    delegate.setExceptionHandler(handler);
  }

  @Override
  public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
    if (message instanceof McpSchema.JSONRPCRequest request) {
      sent.add(request);
    }
    return delegate.sendMessage(message);
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public <T> T unmarshalFrom(Object data, TypeRef<T> type) {
    return delegate.unmarshalFrom(data, type);
  }

  @Override
  public List<String> protocolVersions() {
    return delegate.protocolVersions();
  }
}
