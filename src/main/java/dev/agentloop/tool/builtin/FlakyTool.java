package dev.agentloop.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.tool.AgentTool;
import dev.agentloop.tool.ToolException;
import java.io.IOException;
import java.time.Duration;
import java.util.Random;

/**
 * A test tool that misbehaves at random, for demos and chaos tests ({@code agentloop.tools.flaky.*},
 * off by default). Every call draws one number from a random sequence started with the seed: it then
 * fails transiently (an I/O error: "connection reset", retried), persistently (a {@link ToolException}
 * the model reads), hangs (sleeps until the tool time-out interrupts it), or returns a result for the
 * page asked for. Draws are taken in call order, so one thread calling gets the same sequence for the
 * same seed. Arguments ignore case. Thread-safe.
 */
public class FlakyTool implements AgentTool {

  public static final String NAME = "flaky";

  private static final JsonNode PARAMETERS = Schemas.parse("""
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
}
