package dev.agentloop.internal.telemetry;

import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.ClassUtils;

/**
 * The host's tracer, looked up only where Micrometer Tracing is on the class path: no other class names it before it
 * is known to be there.
 */
final class TracerLookup {

  private TracerLookup() {}

  /**
   * Spans with the host's tracer; {@code null} where it has none (Micrometer's no-op tracer counts as none). Where
   * the host's tracer is OpenTelemetry's, AgentLoop's spans come from OpenTelemetry's API under AgentLoop's own
   * instrumentation scope ({@link OtelSpans}); else from Micrometer's tracer (Brave, say).
   */
  static SpanSource spans(BeanFactory beans) {
    Tracer tracer = beans.getBeanProvider(Tracer.class).getIfUnique();
    if (tracer == null || tracer == Tracer.NOOP) {
      return null;
    }
    if (ClassUtils.isPresent("io.opentelemetry.api.OpenTelemetry", TracerLookup.class.getClassLoader())) {
      SpanSource own = OtelLookup.spans(beans);
      if (own != null) {
        return own;
      }
    }
    return new MicrometerSpans(tracer);
  }
}
