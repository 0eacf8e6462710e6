package dev.agentloop.internal.telemetry;

import io.micrometer.tracing.Span;
import io.micrometer.tracing.TraceContext;
import io.micrometer.tracing.Tracer;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@link SpanSource} with Micrometer Tracing's {@link Tracer}: the only class that names it. Thread-safe. */
final class MicrometerSpans implements SpanSource {

  private final Tracer tracer;

  MicrometerSpans(Tracer tracer) {
    this.tracer = tracer;
  }

  @Override
  public TraceSpan startRun(String name, RunTrace caller) {
    Span.Builder builder = tracer.spanBuilder().name(name);
    if (caller != null) {
      builder.setParent(contextOf(caller));
    } else {
      Span current = tracer.currentSpan();
      if (current != null) {
        builder.setParent(current.context());
      }
    }
    return new Handle(builder.start());
  }

  @Override
  public TraceSpan start(RunTrace run, TraceSpan parent, String name, boolean client, Instant startedAt) {
    Span.Builder builder = tracer.spanBuilder().name(name)
        .setParent(parent instanceof Handle handle ? handle.span.context() : contextOf(run));
    if (client) {
      builder.kind(Span.Kind.CLIENT);
    }
    if (startedAt != null) {
      builder.startTimestamp(startedAt.toEpochMilli(), TimeUnit.MILLISECONDS);
    }
    return new Handle(builder.start());
  }

  private TraceContext contextOf(RunTrace run) {
    return tracer.traceContextBuilder().traceId(run.traceId()).spanId(run.spanId()).sampled(run.sampled()).build();
  }

  private record Handle(Span span) implements TraceSpan {

    @Override
    public TraceSpan tag(String key, String value) {
      span.tag(key, value);
      return this;
    }

    @Override
    public TraceSpan tag(String key, long value) {
      span.tag(key, value);
      return this;
    }

    @Override
    public TraceSpan tag(String key, double value) {
      span.tag(key, value);
      return this;
    }

    @Override
    public TraceSpan tag(String key, List<String> values) {
      span.tagOfStrings(key, values);
      return this;
    }

    @Override
    public TraceSpan error(Throwable cause) {
      span.error(cause);
      return this;
    }

    @Override
    public void end() {
      span.end();
    }

    @Override
    public RunTrace position(String agent) {
      TraceContext context = span.context();
      return new RunTrace(context.traceId(), context.spanId(), !Boolean.FALSE.equals(context.sampled()), agent);
    }
  }
}
