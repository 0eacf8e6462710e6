package dev.agentloop.internal.telemetry;

import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.BeanFactory;

/**
 * The host's tracer, looked up only where Micrometer Tracing is on the class path: no other class names it before it
 * is known to be there.
 */
final class TracerLookup {

  private TracerLookup() {}

  /** Spans with the host's tracer; {@code null} where it has none (Micrometer's no-op tracer counts as none). */
  static SpanSource spans(BeanFactory beans) {
    Tracer tracer = beans.getBeanProvider(Tracer.class).getIfUnique();
    return tracer == null || tracer == Tracer.NOOP ? null : new MicrometerSpans(tracer);
  }
}
