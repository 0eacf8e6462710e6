package dev.agentloop.internal.tool.a2a;

import dev.agentloop.spi.AgentTool;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The remote A2A agents of {@code agentloop.tools.a2a}, each a tool named as its key. Their cards are read in the
 * background once at start (so that no remote agent holds up the application's start, and one that is down does
 * not stop it), and on the first call of an agent whose card could not be read then. Thread-safe.
 */
public final class A2aAgents implements AutoCloseable {

  private final List<A2aAgentTool> tools;
  private final ExecutorService cards;

  private A2aAgents(List<A2aAgentTool> tools, ExecutorService cards) {
    this.tools = tools;
    this.cards = cards;
  }

  /**
   * The tools, with their cards being read in the background.
   *
   * @param timeout of a call of an agent that sets none ({@code agentloop.tools.timeout})
   */
  public static A2aAgents start(Map<String, A2aAgentSettings> settings, Duration timeout) {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10))
        .followRedirects(HttpClient.Redirect.NEVER).build();
    List<A2aAgentTool> tools = new ArrayList<>();
    settings.forEach((name, agent) -> tools.add(new A2aAgentTool(name, agent, timeout, http)));
    if (tools.isEmpty()) {
      return new A2aAgents(tools, null);
    }
    CustomizableThreadFactory threads = new CustomizableThreadFactory("agentloop-a2a-card-");
    threads.setDaemon(true);
    ExecutorService cards = Executors.newSingleThreadExecutor(threads);
    tools.forEach(tool -> cards.execute(tool::readCard));
    cards.shutdown();
    return new A2aAgents(tools, cards);
  }

  /** Every remote agent as a tool. */
  public List<AgentTool> tools() {
    return List.copyOf(tools);
  }

  @Override
  public void close() {
    if (cards != null) {
      cards.shutdownNow();
    }
  }
}
