package dev.agentloop.tool;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * All tools of this application by name, each with its compiled argument schema. Built once at
 * start-up from the tool beans and the configured {@link RemoteTool}s; a duplicate name (also
 * between a local and a remote tool) or an invalid schema fails the start with a message naming
 * the tool. Thread-safe (immutable).
 */
public class ToolRegistry {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final Map<String, RegisteredTool> tools;

  public ToolRegistry(Collection<? extends AgentTool> beans) {
    SchemaRegistry schemas = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12);
    Map<String, RegisteredTool> byName = new LinkedHashMap<>();
    for (AgentTool tool : beans) {
      if (!NAME.matcher(tool.name()).matches()) {
        throw new IllegalArgumentException("tool name '" + tool.name() + "' must match " + NAME);
      }
      Schema schema = compile(schemas, tool);
      if (byName.put(tool.name(), new RegisteredTool(tool, schema)) != null) {
        throw new IllegalArgumentException("two tools are named '" + tool.name() + "'");
      }
    }
    this.tools = Collections.unmodifiableMap(byName);
  }

  public Optional<AgentTool> find(String name) {
    return Optional.ofNullable(tools.get(name)).map(RegisteredTool::tool);
  }

  public boolean contains(String name) {
    return tools.containsKey(name);
  }

  /** Whether the tool runs on remote workers ({@link RemoteTool}) rather than in this application. */
  public boolean isRemote(String name) {
    RegisteredTool tool = tools.get(name);
    return tool != null && tool.tool() instanceof RemoteTool;
  }

  public Collection<String> names() {
    return tools.keySet();
  }

  /**
   * Checks arguments against the tool's schema.
   *
   * @return one readable line per violation, empty when the arguments are valid
   */
  public List<String> violations(String toolName, JsonNode arguments) {
    RegisteredTool tool = tools.get(toolName);
    if (tool == null) {
      throw new IllegalArgumentException("unknown tool " + toolName);
    }
    return tool.schema().validate(arguments).stream().map(ToolRegistry::describe).toList();
  }

  /** "/times: string found, integer expected"; problems of the arguments object itself have no path. */
  private static String describe(Error error) {
    String path = error.getInstanceLocation().toString();
    return path.isEmpty() ? error.getMessage() : path + ": " + error.getMessage();
  }

  private static Schema compile(SchemaRegistry schemas, AgentTool tool) {
    JsonNode parameters = tool.parameters();
    if (parameters == null || !"object".equals(parameters.path("type").asText())) {
      throw new IllegalArgumentException("tool '" + tool.name() + "': parameters must be a JSON Schema of type object");
    }
    try {
      Schema schema = schemas.getSchema(parameters);
      schema.initializeValidators(); // resolves every $ref now, so a broken schema fails the start, not a run
      return schema;
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("tool '" + tool.name() + "': invalid parameters schema: " + e.getMessage(), e);
    }
  }

  private record RegisteredTool(AgentTool tool, Schema schema) {}
}
