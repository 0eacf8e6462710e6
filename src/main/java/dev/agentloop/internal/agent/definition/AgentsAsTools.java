package dev.agentloop.internal.agent.definition;

import dev.agentloop.spi.AgentTool;
import dev.agentloop.internal.tool.ToolSource;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.beans.factory.ObjectProvider;

/**
 * Other agents as tools: every deployed agent (the latest version of each process key) is a tool named after its key,
 * described by its process's documentation, that an agent may call when its {@code allowedTools} name it — never
 * through {@code *}. The listing follows deployments: it is read again at most every few seconds, and at once for a
 * name it does not know, so that an agent deployed on another node is found; an agent deployed in the deployment that
 * is being parsed counts too, so that a coordinator and its sub-agents can be deployed together. Thread-safe.
 */
public class AgentsAsTools implements ToolSource {

  /** The source's name: the tools of agents share no circuit breaker, since their calls are child runs. */
  public static final String NAME = "agents";
  private static final long FRESH_MILLIS = 5_000;

  private final DeployedAgents deployed;
  private volatile DeployedAgents.Listing listing = DeployedAgents.Listing.NONE;
  /** Keys the application deploys right after the deployment this thread runs, see {@link #whileAnnounced}. */
  private static final ThreadLocal<Set<String>> ANNOUNCED = ThreadLocal.withInitial(Set::of);

  public AgentsAsTools(ObjectProvider<ProcessEngine> engine, AgentDefaults defaults) {
    this.deployed = new DeployedAgents(engine, defaults);
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Map<String, AgentTool> tools() {
    return current(FRESH_MILLIS).tools();
  }

  /**
   * A deployed agent's key, or the key of an agent in the deployment being parsed. A name the listing does not know
   * reads the deployed agents again: it may have been deployed a moment ago, here or on another node.
   */
  @Override
  public boolean claims(String toolName) {
    return current(FRESH_MILLIS).tools().containsKey(toolName) || current(0).tools().containsKey(toolName)
        || deployed.beingDeployed().containsKey(toolName) || ANNOUNCED.get().contains(toolName);
  }

  /**
   * Runs a deployment during which these keys count as agents, though not deployed yet: AgentLoop deploys its default
   * agent before the application deploys its own processes at start, and the default agent may name one of them in
   * {@code agentloop.agent.allowed-tools}. The application's deployment right after checks its agents in full.
   */
  public static <T> T whileAnnounced(Set<String> keys, Supplier<T> deployment) {
    Set<String> before = ANNOUNCED.get();
    ANNOUNCED.set(Set.copyOf(keys));
    try {
      return deployment.get();
    } finally {
      ANNOUNCED.set(before);
    }
  }

  /**
   * Never complete: an agent of the deployment being parsed is not listed before its deployment is, so deploy-time
   * checks accept the names this source {@link #claims}.
   */
  @Override
  public boolean listed() {
    return false;
  }

  /** Whether the name is an agent's key (deployed, or in the deployment being parsed). */
  public boolean isAgent(String toolName) {
    return claims(toolName);
  }

  /** The agents that the agent with this key names in its allowedTools; empty for a key that is no agent. */
  public Set<String> calledBy(String key) {
    Set<String> allowed = deployed.beingDeployed().get(key);
    if (allowed == null) {
      allowed = current(FRESH_MILLIS).allowedTools().getOrDefault(key, Set.of());
    }
    return allowed.stream().filter(this::isAgent).collect(Collectors.toUnmodifiableSet());
  }

  private DeployedAgents.Listing current(long maxAgeMillis) {
    DeployedAgents.Listing known = listing;
    if (maxAgeMillis > 0 && System.currentTimeMillis() - known.readAt() < maxAgeMillis) {
      return known;
    }
    DeployedAgents.Listing read = deployed.read(known);
    listing = read;
    return read;
  }
}
