package dev.agentloop.internal.telemetry;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * An OTLP/HTTP trace receiver: decodes each export request with opentelemetry-proto's messages and answers as a
 * collector does; or, told to hang, takes the request and answers nothing until told to answer again.
 */
final class OtlpReceiver {

  private final HttpServer server;
  private final List<Span> spans = new CopyOnWriteArrayList<>();
  private final java.util.Map<com.google.protobuf.ByteString, String> scopes = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile CountDownLatch hanging = new CountDownLatch(0);
  private final java.util.concurrent.atomic.AtomicInteger waiting = new java.util.concurrent.atomic.AtomicInteger();

  OtlpReceiver() throws IOException {
    server = HttpServer.create(new InetSocketAddress("localhost", 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(4));
    server.createContext("/v1/traces", exchange -> {
      byte[] body = exchange.getRequestBody().readAllBytes();
      CountDownLatch hang = hanging;
      if (hang.getCount() > 0) {
        waiting.incrementAndGet();
        try {
          hang.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        exchange.close();
        return;
      }
      ExportTraceServiceRequest request = ExportTraceServiceRequest.parseFrom(body);
      request.getResourceSpansList().forEach(resource -> resource.getScopeSpansList().forEach(scope -> {
        scope.getSpansList().forEach(span -> scopes.put(span.getSpanId(), scope.getScope().getName()));
        spans.addAll(scope.getSpansList());
      }));
      byte[] response = ExportTraceServiceResponse.getDefaultInstance().toByteArray();
      exchange.getResponseHeaders().add("Content-Type", "application/x-protobuf");
      exchange.sendResponseHeaders(200, response.length == 0 ? -1 : response.length);
      exchange.getResponseBody().write(response);
      exchange.close();
    });
    server.start();
  }

  int port() {
    return server.getAddress().getPort();
  }

  List<Span> spans() {
    return List.copyOf(spans);
  }

  /** The name of the instrumentation scope a span came in. */
  String scopeOf(Span span) {
    return scopes.get(span.getSpanId());
  }

  void hang() {
    waiting.set(0);
    hanging = new CountDownLatch(1);
  }

  int waiting() {
    return waiting.get();
  }

  void answer() {
    hanging.countDown();
  }

  void stop() {
    answer();
    server.stop(0);
  }
}
