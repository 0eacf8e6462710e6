package dev.agentloop.internal.security;

import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * A path beside the REST API where AgentLoop speaks a protocol of the agent world (MCP's {@code /mcp}, A2A's
 * {@code /a2a}): a bean of this type puts the path and everything below it behind the API's authentication, so that
 * a caller there is a Camunda user as on {@code /api}, and Camunda's authorization decides the same.
 *
 * @param path the servlet path, e.g. {@code /mcp}: starts with / and does not end with /
 */
public record ProtocolPath(String path) {

  public ProtocolPath {
    Objects.requireNonNull(path, "path");
    if (!path.matches("/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]")) {
      throw new IllegalArgumentException("path must start with / and not end with /, e.g. /mcp, was '" + path + "'");
    }
  }

  /** Servlet URL patterns of the API's resources and of the protocols' paths. */
  static List<String> urlPatterns(ApiSettings api, Stream<ProtocolPath> protocols) {
    return Stream.concat(api.urlPatterns().stream(), protocols.flatMap(protocol ->
        Stream.of(protocol.path(), protocol.path() + "/*"))).toList();
  }
}
