package dev.agentloop.internal.telemetry;

import dev.agentloop.internal.llm.LlmSettings;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.ClassUtils;

/**
 * Runs as traces where the host has tracing (a Micrometer {@code Tracer} bean, e.g. Spring Boot's with
 * {@code micrometer-tracing-bridge-otel}); where it has none, the same beans make no spans and store nothing.
 */
@Configuration(proxyBeanMethods = false)
public class TelemetryConfiguration {

  /** Spans an exporter could not deliver, by exporter. */
  public static final String DROPPED_SPANS = "agentloop.telemetry.spans.dropped";

  @Bean
  RunTraces runTraces(BeanFactory beans, ObjectProvider<ProcessEngine> engine, TelemetrySettings settings) {
    Supplier<ProcessEngineConfigurationImpl> configuration = () -> {
      ProcessEngine running = engine.getIfAvailable();
      return running == null ? null : (ProcessEngineConfigurationImpl) running.getProcessEngineConfiguration();
    };
    return ClassUtils.isPresent("io.micrometer.tracing.Tracer", TelemetryConfiguration.class.getClassLoader())
        ? new RunTraces(TracerLookup.spans(beans), configuration, settings) : RunTraces.none();
  }

  @Bean
  ModelSpans modelSpans(RunTraces traces, ObjectProvider<LlmSettings> llm) {
    return new ModelSpans(traces, llm.getIfAvailable());
  }

  @Bean
  ToolSpans toolSpans(RunTraces traces) {
    return new ToolSpans(traces);
  }

  @Bean
  DecisionSpans decisionSpans(RunTraces traces) {
    return new DecisionSpans(traces);
  }

  /** Where the host exports with OpenTelemetry's SDK: its exporters count the spans they could not deliver. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.opentelemetry.sdk.trace.export.SpanExporter")
  static class DroppedSpans {

    @Bean
    static BeanPostProcessor agentLoopDroppedSpans(ObjectProvider<MeterRegistry> registry) {
      return new BeanPostProcessor() {
        @Override
        public Object postProcessAfterInitialization(Object bean, String name) {
          if (!(bean instanceof SpanExporter exporter) || bean instanceof CountingSpanExporter) {
            return bean;
          }
          AtomicReference<Counter> counter = new AtomicReference<>();
          String exporterName = exporter.getClass().getSimpleName();
          return new CountingSpanExporter(exporter, () -> counter.updateAndGet(known -> known != null ? known
              : Counter.builder(DROPPED_SPANS).description("Spans an exporter could not deliver")
                  .tag("exporter", exporterName)
                  .register(registry.getIfAvailable(io.micrometer.core.instrument.simple.SimpleMeterRegistry::new))));
        }
      };
    }
  }
}
