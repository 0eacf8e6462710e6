package dev.agentloop.internal.tool;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import dev.agentloop.spi.AgentTool;
import java.util.List;

/**
 * The JSON Schemas (draft 2020-12) of tools' parameters: compiled once, with every {@code $ref} resolved, and read
 * back as one line in words per way a call's arguments break them. Apart from {@link ToolRegistry}, which decides
 * which tools there are. Thread-safe.
 */
final class ArgumentSchemas {

  private final SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);

  /** The tool with its compiled schema; an argument schema that is no object schema or does not compile is refused. */
  RegisteredTool register(AgentTool tool) {
    JsonNode parameters = tool.parameters();
    if (parameters == null || !"object".equals(parameters.path("type").asText())) {
      throw new IllegalArgumentException("tool '" + tool.name() + "': parameters must be a JSON Schema of type object");
    }
    try {
      Schema schema = schemas.getSchema(parameters);
      schema.initializeValidators(); // resolves every $ref now, so a broken schema fails the start, not a run
      return new RegisteredTool(tool, schema);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("tool '" + tool.name() + "': invalid parameters schema: " + e.getMessage(), e);
    }
  }

  /** A tool with its compiled argument schema. */
  record RegisteredTool(AgentTool tool, Schema schema) {

    /** One readable line per way the arguments break the schema; empty when they are valid. */
    List<String> violations(JsonNode arguments) {
      return schema.validate(arguments).stream().map(RegisteredTool::describe).toList();
    }

    /** "/times: string found, integer expected"; problems of the arguments object itself have no path. */
    private static String describe(Error error) {
      String path = error.getInstanceLocation().toString();
      return path.isEmpty() ? error.getMessage() : path + ": " + error.getMessage();
    }
  }
}
