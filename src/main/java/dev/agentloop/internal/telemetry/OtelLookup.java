package dev.agentloop.internal.telemetry;

import io.opentelemetry.api.OpenTelemetry;
import org.springframework.beans.factory.BeanFactory;

/** The host's {@code OpenTelemetry}, looked up only where OpenTelemetry's API is on the class path. */
final class OtelLookup {

  private OtelLookup() {}

  /** Spans of AgentLoop's own scope; {@code null} where the host has no {@code OpenTelemetry} (or the no-op one). */
  static SpanSource spans(BeanFactory beans) {
    OpenTelemetry openTelemetry = beans.getBeanProvider(OpenTelemetry.class).getIfUnique();
    return openTelemetry == null || openTelemetry == OpenTelemetry.noop() ? null : new OtelSpans(openTelemetry);
  }
}
