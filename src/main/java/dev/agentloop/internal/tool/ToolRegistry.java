package dev.agentloop.internal.tool;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolOutcome.FailureKind;
import dev.agentloop.internal.tool.ArgumentSchemas.RegisteredTool;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * All tools of this application by name, each with its compiled argument schema: the tool beans and
 * the configured {@link RemoteTool}s, fixed at start-up, and the tools of {@link ToolSource}s (MCP
 * servers), which are looked up anew on every call and compiled once per listing. A duplicate name
 * (also between a local and a remote tool) or an invalid schema of a fixed tool fails the start with
 * a message naming the tool; a source's tool with a bad name or schema is left out with a warning,
 * since the source is outside this application's control ({@link SourceListing}). The schemas are
 * {@link ArgumentSchemas}'. Thread-safe.
 */
public class ToolRegistry {

  /** What a tool's name may be: the model providers' rule for a function's name. */
  static final Pattern NAME = Pattern.compile("[A-Za-z0-9_-]{1,64}");

  private final ArgumentSchemas schemas = new ArgumentSchemas();
  private final Map<String, RegisteredTool> tools;
  /** Replaced, never changed, when a source is added: readers need no lock. */
  private volatile Map<ToolSource, SourceListing> sources = Map.of();
  /** Stand-ins for tools of sources never reached, by name, while those sources have not listed. */
  private final Map<String, RegisteredTool> placeholders = new ConcurrentHashMap<>();

  public ToolRegistry(Collection<? extends AgentTool> beans) {
    this(beans, List.of());
  }

  public ToolRegistry(Collection<? extends AgentTool> beans, Collection<? extends ToolSource> sources) {
    Map<String, RegisteredTool> byName = new LinkedHashMap<>();
    for (AgentTool tool : beans) {
      if (!NAME.matcher(tool.name()).matches()) {
        throw new IllegalArgumentException("tool name '" + tool.name() + "' must match " + NAME);
      }
      if (sources.stream().anyMatch(source -> source.claims(tool.name()))) {
        throw new IllegalArgumentException("tool name '" + tool.name() + "' is taken by an MCP server's tools");
      }
      if (byName.put(tool.name(), schemas.register(tool)) != null) {
        throw new IllegalArgumentException("two tools are named '" + tool.name() + "'");
      }
    }
    this.tools = Collections.unmodifiableMap(byName);
    sources.forEach(this::addSource);
  }

  /**
   * Adds a source of tools that is wired after the registry, such as the deployed agents, which need the engine that
   * needs this registry. A name the fixed tools have already is left out of the source's listing with a warning.
   */
  public synchronized void addSource(ToolSource source) {
    Map<ToolSource, SourceListing> more = new LinkedHashMap<>(sources);
    more.put(source, new SourceListing(source));
    sources = Collections.unmodifiableMap(more);
  }

  public Optional<AgentTool> find(String name) {
    return Optional.ofNullable(registered(name)).map(RegisteredTool::tool);
  }

  public boolean contains(String name) {
    return registered(name) != null;
  }

  /**
   * Whether configuration and diagrams may name this tool: a registered tool, or one claimed by a
   * source that has not listed its tools yet (an MCP server not reached so far), which start-up and
   * deployment cannot tell from an unknown tool. A call of a tool that is not listed then is refused.
   */
  public boolean accepts(String name) {
    return contains(name) || sources.keySet().stream().anyMatch(source -> !source.listed() && source.claims(name));
  }

  /** Whether the tool runs on remote workers ({@link RemoteTool}) rather than in this application. */
  public boolean isRemote(String name) {
    RegisteredTool tool = registered(name);
    return tool != null && tool.tool() instanceof RemoteTool;
  }

  /** The names of the sources of tools that come and go (the MCP servers). */
  public List<String> sources() {
    return sources.keySet().stream().map(ToolSource::name).toList();
  }

  /**
   * Tells the listener, with the source's name, whenever a source becomes unavailable (with why) or
   * available again ({@code null}).
   */
  public void onSourceAvailability(BiConsumer<String, String> listener) {
    sources.keySet().forEach(source -> source.onAvailabilityChange(why -> listener.accept(source.name(), why)));
  }

  /**
   * The names of the fixed tools, then those the sources list now. A tool of a source never reached
   * is not among them, but {@link #find} finds it by name (as a stand-in whose calls fail with why).
   */
  public Collection<String> names() {
    if (sources.isEmpty()) {
      return tools.keySet();
    }
    Set<String> names = new LinkedHashSet<>(tools.keySet());
    sources.keySet().forEach(source -> names.addAll(listing(source).keySet()));
    return Collections.unmodifiableSet(names);
  }

  /**
   * The one check of a tool call before it runs, with one message for each way it can be wrong: a
   * tool that is unknown or not offered, arguments that are no JSON object, arguments that break the
   * tool's schema. The model, people editing a call and the API all read these messages.
   *
   * @param arguments the arguments object, or what was written instead (e.g. a JSON string of the
   *     model's unparsable text), or {@code null} when there were none
   * @param offered which tools the caller may call, e.g. an agent's allowed tools; {@code null} for all
   * @return why the call cannot run, or empty when it can
   */
  public Optional<ToolOutcome.Failure> refusal(String toolName, JsonNode arguments, Predicate<String> offered) {
    if (!contains(toolName) || (offered != null && !offered.test(toolName))) {
      List<String> available = names().stream().filter(name -> offered == null || offered.test(name)).toList();
      return Optional.of(new ToolOutcome.Failure(FailureKind.UNKNOWN_TOOL, "there is no tool named '" + toolName + "'"
          + (offered == null ? "" : " for this agent") + "; available tools: " + String.join(", ", available)));
    }
    if (arguments == null || !arguments.isObject()) {
      String written = arguments == null ? "" : arguments.isTextual() ? arguments.asText() : arguments.toString();
      return Optional.of(new ToolOutcome.Failure(FailureKind.INVALID_ARGUMENTS, "the arguments of '" + toolName
          + "' must be a JSON object"
          + (written.isEmpty() ? "" : ", but were: " + (written.length() > 500 ? written.substring(0, 500) + "[…]" : written))));
    }
    List<String> violations = violations(toolName, arguments);
    return violations.isEmpty() ? Optional.empty()
        : Optional.of(new ToolOutcome.Failure(FailureKind.INVALID_ARGUMENTS,
            "arguments for '" + toolName + "' do not match its schema: " + String.join("; ", violations)));
  }

  /**
   * Checks arguments against the tool's schema.
   *
   * @return one readable line per violation, empty when the arguments are valid
   */
  public List<String> violations(String toolName, JsonNode arguments) {
    RegisteredTool tool = registered(toolName);
    if (tool == null) {
      throw new IllegalArgumentException("unknown tool " + toolName);
    }
    return tool.violations(arguments);
  }

  private RegisteredTool registered(String name) {
    RegisteredTool tool = tools.get(name);
    if (tool != null || sources.isEmpty()) {
      return tool;
    }
    for (ToolSource source : sources.keySet()) {
      if (source.claims(name)) {
        RegisteredTool listed = listing(source).get(name);
        return listed != null || source.listed() ? listed : placeholder(source, name);
      }
    }
    return null;
  }

  private RegisteredTool placeholder(ToolSource source, String name) {
    if (!NAME.matcher(name).matches()) {
      return null;
    }
    Optional<AgentTool> standIn = source.placeholder(name);
    return standIn.map(tool -> placeholders.computeIfAbsent(name, n -> schemas.register(tool)))
        .orElse(null);
  }

  /** The source's tools with their schemas, compiled again only when the source lists anew. */
  private Map<String, RegisteredTool> listing(ToolSource source) {
    return sources.get(source).tools(tools::containsKey, schemas);
  }
}
