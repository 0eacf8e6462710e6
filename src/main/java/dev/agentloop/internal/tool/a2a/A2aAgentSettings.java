package dev.agentloop.internal.tool.a2a;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * One remote A2A agent, as declared in {@code agentloop.tools.a2a.<name>}: agents call it as the tool
 * {@code <name>}. Immutable.
 *
 * @param url the agent's base URL: its card is {@code <url>/.well-known/agent-card.json}, and the JSON-RPC
 *     endpoint the card names must be on the same scheme, host and port (credentials go nowhere else)
 * @param headers sent with every request, e.g. {@code Authorization: Bearer ${TRAVEL_AGENT_TOKEN}} (take secrets
 *     from the environment with a placeholder)
 * @param description what the model reads about the tool; default: the card's description and skills
 * @param timeout how long one call may take, the remote task's answer included; then the remote task is
 *     cancelled. Default: {@code agentloop.tools.timeout}
 * @param sideEffects whether a call changes the world, so that it needs approval and is never repeated silently;
 *     default {@code true}: a remote agent may do anything
 * @param pollInterval how often a task the remote agent is still working on is asked for. Default 1 s
 */
public record A2aAgentSettings(
    String url,
    Map<String, String> headers,
    String description,
    Duration timeout,
    Boolean sideEffects,
    Duration pollInterval) {

  public A2aAgentSettings {
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException("url is required: the remote agent's base URL, whose card is at"
          + " <url>" + A2aProtocol.CARD_PATH);
    }
    URI uri;
    try {
      uri = URI.create(url.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("url '" + url + "' is not a URL: " + e.getMessage());
    }
    if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme()) || uri.getHost() == null) {
      throw new IllegalArgumentException("url '" + url + "' must be an http or https URL with a host");
    }
    url = url.strip().replaceAll("/+$", "");
    headers = headers == null ? Map.of() : Map.copyOf(headers);
    description = description == null || description.isBlank() ? null : description.strip();
    requirePositive(timeout, "timeout");
    sideEffects = sideEffects == null || sideEffects;
    pollInterval = requirePositive(pollInterval, "poll-interval") == null ? Duration.ofSeconds(1) : pollInterval;
  }

  /** A remote agent at this base URL with every other setting at its default. */
  public static A2aAgentSettings of(String url) {
    return new A2aAgentSettings(url, null, null, null, null, null);
  }

  private static Duration requirePositive(Duration duration, String name) {
    if (duration != null && (duration.isNegative() || duration.isZero())) {
      throw new IllegalArgumentException(name + " must be positive, not " + duration);
    }
    return duration;
  }
}
