package dev.agentloop.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import org.camunda.bpm.engine.impl.util.ClockUtil;

/** The current date and time, in a time zone the model names (UTC by default). */
public class CurrentTimeTool implements AgentTool {

  private static final JsonNode PARAMETERS = Schemas.parse("""
      {"type": "object",
       "properties": {"timezone": {"type": "string", "maxLength": 64,
                      "description": "IANA time zone such as Europe/Berlin; default UTC"}},
       "additionalProperties": false}
      """);

  @Override
  public String name() {
    return "current_time";
  }

  @Override
  public String description() {
    return "Returns the current date, time and weekday.";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  @Override
  public String execute(JsonNode arguments) throws ToolException {
    String zone = arguments.path("timezone").asText("UTC");
    try {
      ZonedDateTime now = ClockUtil.getCurrentTime().toInstant().atZone(ZoneId.of(zone.isBlank() ? "UTC" : zone));
      return now.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME) + " (" + now.getDayOfWeek() + ", " + zone + ")";
    } catch (DateTimeException e) {
      throw new ToolException("unknown time zone '" + zone + "'; use an IANA name such as Europe/Berlin");
    }
  }
}
