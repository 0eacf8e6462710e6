package dev.agentloop.internal.tool;

import dev.agentloop.internal.tool.ArgumentSchemas.RegisteredTool;
import dev.agentloop.spi.AgentTool;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one {@link ToolSource} lists now, each tool with its compiled schema, compiled again only when the source
 * lists anew. A tool with a bad name, a name another tool has, or a bad schema is left out with a warning: the source
 * is outside this application's control, so it must not stop the rest. Thread-safe.
 */
final class SourceListing {

  private static final Logger LOG = LoggerFactory.getLogger(ToolRegistry.class);

  private final ToolSource source;
  private final AtomicReference<Listing> cached = new AtomicReference<>(Listing.NONE);

  SourceListing(ToolSource source) {
    this.source = source;
  }

  /**
   * @param taken whether a fixed tool has the name already
   */
  Map<String, RegisteredTool> tools(Predicate<String> taken, ArgumentSchemas schemas) {
    Map<String, AgentTool> offered = source.tools();
    Listing listing = cached.get();
    if (listing.offered() == offered) {
      return listing.tools();
    }
    Map<String, RegisteredTool> compiled = new LinkedHashMap<>();
    offered.values().forEach(tool -> {
      if (!ToolRegistry.NAME.matcher(tool.name()).matches() || taken.test(tool.name())) {
        LOG.warn("AGENTLOOP-010 tool '{}' is left out: its name must match {} and differ from every other tool's."
            + " Rename it where it is offered (its MCP server, or the other tool)", tool.name(), ToolRegistry.NAME);
        return;
      }
      try {
        compiled.put(tool.name(), schemas.register(tool));
      } catch (IllegalArgumentException e) {
        LOG.warn("AGENTLOOP-011 tool '{}' is left out: {}. Fix its parameter schema where it is offered", tool.name(),
            e.getMessage());
      }
    });
    Listing fresh = new Listing(offered, Collections.unmodifiableMap(compiled));
    cached.set(fresh);
    return fresh.tools();
  }

  /** The map the source offered (compared by identity: a source replaces it when it lists anew) and its tools. */
  private record Listing(Map<String, AgentTool> offered, Map<String, RegisteredTool> tools) {
    static final Listing NONE = new Listing(null, Map.of());
  }
}
