package dev.agentloop.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import java.io.IOException;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import java.util.Random;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * A tool of the demo's own that misbehaves at random, for trying the escape route by hand and for the
 * chaos test ({@code demo.tools.flaky.*}, off by default); an {@link AgentTool} bean like any tool of an
 * application. Every call draws one number from a random sequence started with the seed: it then
 * fails transiently (an I/O error: "connection reset", retried), persistently (a {@link ToolException}
 * the model reads), hangs (sleeps until the tool time-out interrupts it), or returns a result for the
 * page asked for. Draws are taken in call order, so one thread calling gets the same sequence for the
 * same seed. Arguments ignore case. Thread-safe.
 */
public class FlakyTool implements AgentTool {

  public static final String NAME = "flaky";

  private static final JsonNode PARAMETERS = parse("""
      {"type": "object",
       "properties": {"query": {"type": "string", "maxLength": 200, "description": "what to look up"},
                      "page": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "result page, from 1"}},
       "additionalProperties": false}
      """);

  private final Random random;
  private final double transientRate;
  private final double persistentRate;
  private final double hangRate;
  private final Duration hang;
  private final Duration latency;

  /** The tool the settings describe. */
  static FlakyTool of(Settings settings) {
    return new FlakyTool(settings.seed(), settings.transientRate(), settings.persistentRate(), settings.hangRate(),
        settings.hang(), settings.latency());
  }

  /**
   * @throws IllegalArgumentException when a rate is outside [0, 1] or the rates add up to more than 1
   */
  public FlakyTool(long seed, double transientRate, double persistentRate, double hangRate, Duration hang,
      Duration latency) {
    for (double rate : new double[] {transientRate, persistentRate, hangRate}) {
      if (rate < 0 || rate > 1) {
        throw new IllegalArgumentException("flaky tool rates must be within [0, 1], were " + transientRate + ", "
            + persistentRate + ", " + hangRate);
      }
    }
    if (transientRate + persistentRate + hangRate > 1) {
      throw new IllegalArgumentException("flaky tool rates must add up to at most 1");
    }
    this.random = new Random(seed);
    this.transientRate = transientRate;
    this.persistentRate = persistentRate;
    this.hangRate = hangRate;
    this.hang = hang;
    this.latency = latency;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String description() {
    return "Looks up a query, one page of results at a time. A test tool: it fails or hangs at random.";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  @Override
  public boolean caseInsensitiveArguments() {
    return true;
  }

  @Override
  public String execute(JsonNode arguments) throws Exception {
    double draw;
    synchronized (random) {
      draw = random.nextDouble();
    }
    if (draw < transientRate) {
      throw new IOException("flaky: connection reset (a transient failure)");
    }
    if (draw < transientRate + persistentRate) {
      throw new ToolException("flaky: there is no result for this query (a persistent failure)");
    }
    if (draw < transientRate + persistentRate + hangRate) {
      Thread.sleep(hang.toMillis());
      return "flaky: woke up after hanging";
    }
    if (!latency.isZero()) {
      Thread.sleep(latency.toMillis());
    }
    int page = arguments.path("page").asInt(1);
    return "flaky: page " + page + " of the results for '" + arguments.path("query").asText("") + "'";
  }

  private static JsonNode parse(String schema) {
    try {
      return new ObjectMapper().readTree(schema);
    } catch (IOException e) {
      throw new IllegalStateException("the flaky tool's own schema does not parse", e);
    }
  }

  /**
   * The flaky tool's settings ({@code demo.tools.flaky.*}). Each call draws once from a random sequence
   * started with {@code seed}: below {@code transientRate} it fails transiently, below the sum with
   * {@code persistentRate} persistently, below the sum with {@code hangRate} it hangs for {@code hang};
   * otherwise it answers after {@code latency}.
   *
   * @param enabled whether the tool flaky is registered (never in production)
   * @param seed the start of its random sequence, so a run of failures can be repeated
   * @param transientRate the share of calls that fail transiently (retried)
   * @param persistentRate the share of calls that fail persistently (not retried)
   * @param hangRate the share of calls that hang
   * @param hang how long a hanging call sleeps (the tool timeout ends it first)
   * @param latency how long an answering call takes
   */
  public record Settings(
      @DefaultValue("false") boolean enabled,
      @DefaultValue("42") long seed,
      @DefaultValue("0.3") @DecimalMin("0") @DecimalMax("1") double transientRate,
      @DefaultValue("0.1") @DecimalMin("0") @DecimalMax("1") double persistentRate,
      @DefaultValue("0.02") @DecimalMin("0") @DecimalMax("1") double hangRate,
      @DefaultValue("PT1M") @NotNull Duration hang,
      @DefaultValue("PT0S") @NotNull Duration latency) {

    @AssertTrue(message = "transient-rate + persistent-rate + hang-rate must be at most 1")
    boolean isRatesAddUp() {
      return transientRate + persistentRate + hangRate <= 1.0;
    }
  }
}
