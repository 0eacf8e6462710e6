package dev.agentloop.internal.tool.mcp;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import reactor.core.publisher.Mono;

/**
 * The SDK's transport with one addition: a call AgentLoop gave up on can be cancelled on the server
 * with {@code notifications/cancelled}. The SDK's client neither sends that notification nor tells
 * the JSON-RPC id of a request, so every {@code tools/call} carries a key of ours in its
 * {@code _meta} ({@link #CALL_KEY}), and this transport notes which request id went out with which
 * key. Thread-safe.
 */
final class CancellingTransport implements McpClientTransport {

  /** The {@code _meta} entry that names a call, e.g. {@code "dev.agentloop/call": "<uuid>"}. */
  static final String CALL_KEY = "dev.agentloop/call";

  private final McpClientTransport delegate;
  private final Map<String, Object> requestIds = new ConcurrentHashMap<>();

  CancellingTransport(McpClientTransport delegate) {
    this.delegate = delegate;
  }

  McpClientTransport delegate() {
    return delegate;
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
    if (message instanceof McpSchema.JSONRPCRequest request && McpSchema.METHOD_TOOLS_CALL.equals(request.method())
        && request.params() instanceof McpSchema.CallToolRequest call && call.meta() != null
        && call.meta().get(CALL_KEY) instanceof String key) {
      requestIds.put(key, request.id());
    }
    return delegate.sendMessage(message);
  }

  /** The call is over (answered or given up): its id is no longer needed. */
  void done(String callKey) {
    requestIds.remove(callKey);
  }

  /** Tells the server to stop the call; nothing when the call never went out. */
  Mono<Void> cancel(String callKey, String reason) {
    Object id = requestIds.remove(callKey);
    if (id == null) {
      return Mono.empty();
    }
    return delegate.sendMessage(new McpSchema.JSONRPCNotification(McpSchema.JSONRPC_VERSION,
        "notifications/cancelled", Map.of("requestId", id, "reason", reason)));
  }

  @Override
  public Mono<Void> closeGracefully() {
    return delegate.closeGracefully();
  }

  @Override
  public void close() {
    delegate.close();
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
