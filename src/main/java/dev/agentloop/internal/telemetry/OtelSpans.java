package dev.agentloop.internal.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.time.Instant;
import java.util.List;

/**
 * {@link SpanSource} with OpenTelemetry's API, where the host has an {@code OpenTelemetry} (Spring Boot's, with
 * {@code micrometer-tracing-bridge-otel}): spans of AgentLoop's own instrumentation scope, {@value #SCOPE} and
 * AgentLoop's version, so that a backend tells AgentLoop's spans from the host's. The host's current span (its
 * HTTP request's) is still a run's parent: the bridge keeps Micrometer's current span in OpenTelemetry's context.
 * The only class besides {@link OtelLookup} that names OpenTelemetry's types. Thread-safe.
 */
final class OtelSpans implements SpanSource {

  /** AgentLoop's instrumentation scope. */
  static final String SCOPE = "dev.agentloop";

  private final Tracer tracer;

  OtelSpans(OpenTelemetry openTelemetry) {
    String version = OtelSpans.class.getPackage().getImplementationVersion();
    this.tracer = openTelemetry.tracerBuilder(SCOPE).setInstrumentationVersion(version == null ? "development" : version)
        .build();
  }

  @Override
  public TraceSpan startRun(String name, RunTrace caller) {
    SpanBuilder builder = tracer.spanBuilder(name);
    builder.setParent(caller != null ? contextOf(caller) : Context.current());
    return new Handle(builder.startSpan());
  }

  @Override
  public TraceSpan start(RunTrace run, TraceSpan parent, String name, boolean client, Instant startedAt) {
    SpanBuilder builder = tracer.spanBuilder(name)
        .setParent(parent instanceof Handle handle ? Context.root().with(handle.span) : contextOf(run));
    if (client) {
      builder.setSpanKind(SpanKind.CLIENT);
    }
    if (startedAt != null) {
      builder.setStartTimestamp(startedAt);
    }
    return new Handle(builder.startSpan());
  }

  private static Context contextOf(RunTrace run) {
    SpanContext context = SpanContext.createFromRemoteParent(run.traceId(), run.spanId(),
        run.sampled() ? TraceFlags.getSampled() : TraceFlags.getDefault(), TraceState.getDefault());
    return Context.root().with(Span.wrap(context));
  }

  private record Handle(Span span) implements TraceSpan {

    @Override
    public TraceSpan tag(String key, String value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public TraceSpan tag(String key, long value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public TraceSpan tag(String key, double value) {
      span.setAttribute(key, value);
      return this;
    }

    @Override
    public TraceSpan tag(String key, List<String> values) {
      span.setAttribute(AttributeKey.stringArrayKey(key), values);
      return this;
    }

    @Override
    public TraceSpan error(Throwable cause) {
      span.recordException(cause);
      span.setStatus(StatusCode.ERROR, cause.getMessage() == null ? "" : cause.getMessage());
      return this;
    }

    @Override
    public void end() {
      span.end();
    }

    @Override
    public RunTrace position(String agent) {
      SpanContext context = span.getSpanContext();
      return new RunTrace(context.getTraceId(), context.getSpanId(), context.isSampled(), agent);
    }
  }
}
