package dev.agentloop.internal.tool.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;

/**
 * What AgentLoop takes from a remote agent's card: the JSON-RPC endpoint of A2A 1.0 it offers (the first such
 * interface, as the specification asks clients to prefer earlier ones) and what the model reads about the agent.
 * The endpoint must be on the scheme, host and port of the configured URL: a card is the peer's word, and the
 * configured credentials go to no other server. Immutable.
 *
 * @param endpoint where the JSON-RPC requests go
 * @param description the card's name, description and skills, for the model, at most {@link #MAX_DESCRIPTION} characters
 */
record RemoteCard(URI endpoint, String description) {

  static final int MAX_DESCRIPTION = 1500;

  static RemoteCard of(JsonNode card, String agent, String configuredUrl) throws A2aPeerException {
    URI configured = URI.create(configuredUrl);
    for (JsonNode face : card.path("supportedInterfaces")) {
      if (!A2aProtocol.JSONRPC.equalsIgnoreCase(face.path("protocolBinding").asText())
          || !A2aProtocol.VERSION.equals(face.path("protocolVersion").asText())) {
        continue;
      }
      URI endpoint;
      try {
        endpoint = URI.create(face.path("url").asText());
      } catch (IllegalArgumentException e) {
        throw new A2aPeerException("remote agent '" + agent + "': its card names the endpoint '"
            + A2aClient.cut(face.path("url").asText()) + "', which is no URL");
      }
      if (!sameOrigin(endpoint, configured)) {
        throw new A2aPeerException("remote agent '" + agent + "': its card names the endpoint " + endpoint
            + ", which is not on " + configured.getScheme() + "://" + configured.getAuthority() + " (AGENTLOOP-602: the"
            + " configured credentials go nowhere else; set agentloop.tools.a2a." + agent + ".url to that server)");
      }
      return new RemoteCard(endpoint, describe(card, agent));
    }
    throw new A2aPeerException("remote agent '" + agent + "': its card offers no JSON-RPC interface of A2A "
        + A2aProtocol.VERSION + " (AGENTLOOP-603: AgentLoop speaks only that)");
  }

  private static boolean sameOrigin(URI endpoint, URI configured) {
    return configured.getScheme().equalsIgnoreCase(String.valueOf(endpoint.getScheme()))
        && configured.getHost().equalsIgnoreCase(String.valueOf(endpoint.getHost()))
        && port(configured) == port(endpoint);
  }

  private static int port(URI uri) {
    return uri.getPort() != -1 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
  }

  private static String describe(JsonNode card, String agent) {
    StringBuilder text = new StringBuilder("Remote agent ").append(card.path("name").asText(agent)).append(": ")
        .append(card.path("description").asText("").strip());
    List<String> skills = new ArrayList<>();
    card.path("skills").forEach(skill -> skills.add(skill.path("name").asText(skill.path("id").asText("?")) + " ("
        + skill.path("description").asText("").strip() + ")"));
    if (!skills.isEmpty()) {
      text.append(" Skills: ").append(String.join("; ", skills)).append('.');
    }
    String flat = text.toString().replaceAll("\\s+", " ").strip();
    return flat.length() <= MAX_DESCRIPTION ? flat : flat.substring(0, MAX_DESCRIPTION) + "…";
  }
}
