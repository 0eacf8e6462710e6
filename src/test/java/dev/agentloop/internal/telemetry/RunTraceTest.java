package dev.agentloop.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The trace context stored with a run: read back as written, and a damaged one starts no trace rather than failing. */
class RunTraceTest {

  private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String SPAN = "00f067aa0ba902b7";

  @Test
  void should_read_a_stored_traceparent_back_as_it_was_written() {
    RunTrace trace = new RunTrace(TRACE, SPAN, true, "react-agent");

    assertThat(trace.traceparent()).isEqualTo("00-" + TRACE + "-" + SPAN + "-01");
    assertThat(RunTrace.parse(trace.traceparent(), "react-agent")).isEqualTo(trace);
    assertThat(RunTrace.parse("00-" + TRACE + "-" + SPAN + "-00", "a").sampled()).isFalse();
    assertThat(RunTrace.parse(" 00-" + TRACE.toUpperCase() + "-" + SPAN + "-01 ", "a").traceId()).isEqualTo(TRACE);
  }

  @Test
  void should_take_a_damaged_or_foreign_value_for_no_trace() {
    assertThat(RunTrace.parse(null, "a")).isNull();
    assertThat(RunTrace.parse(42, "a")).isNull();
    assertThat(RunTrace.parse("", "a")).isNull();
    assertThat(RunTrace.parse("01-" + TRACE + "-" + SPAN + "-01", "a")).as("unknown version").isNull();
    assertThat(RunTrace.parse("00-" + TRACE + "-" + SPAN, "a")).as("no flags").isNull();
    assertThat(RunTrace.parse("00-" + "0".repeat(32) + "-" + SPAN + "-01", "a")).as("invalid trace id").isNull();
    assertThat(RunTrace.parse("00-" + TRACE + "-" + "0".repeat(16) + "-01", "a")).as("invalid span id").isNull();
    assertThat(RunTrace.parse("00-" + TRACE + "-" + SPAN + "-zz", "a")).isNull();
  }

  @Test
  void should_refuse_to_make_a_context_of_invalid_ids_naming_the_one_that_is_wrong() {
    assertThatThrownBy(() -> new RunTrace("abc", SPAN, true, "a")).hasMessageContaining("traceId");
    assertThatThrownBy(() -> new RunTrace(TRACE, "0".repeat(16), true, "a")).hasMessageContaining("spanId");
  }
}
