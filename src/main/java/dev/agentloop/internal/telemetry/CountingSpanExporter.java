package dev.agentloop.internal.telemetry;

import io.micrometer.core.instrument.Counter;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import java.util.function.Supplier;

/**
 * The host's span exporter, unchanged, except that the spans of an export that failed (an unreachable collector, a
 * refusal) are counted as dropped: the exporter gives them up, and nobody would know. Thread-safe.
 */
final class CountingSpanExporter implements SpanExporter {

  private final SpanExporter exporter;
  private final Supplier<Counter> dropped;

  CountingSpanExporter(SpanExporter exporter, Supplier<Counter> dropped) {
    this.exporter = exporter;
    this.dropped = dropped;
  }

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    int count = spans.size();
    CompletableResultCode result;
    try {
      result = exporter.export(spans);
    } catch (RuntimeException e) {
      dropped.get().increment(count);
      return CompletableResultCode.ofExceptionalFailure(e);
    }
    result.whenComplete(() -> {
      if (!result.isSuccess()) {
        dropped.get().increment(count);
      }
    });
    return result;
  }

  @Override
  public CompletableResultCode flush() {
    return exporter.flush();
  }

  @Override
  public CompletableResultCode shutdown() {
    return exporter.shutdown();
  }

  @Override
  public void close() {
    exporter.close();
  }

  @Override
  public String toString() {
    return "CountingSpanExporter{" + exporter + "}";
  }
}
