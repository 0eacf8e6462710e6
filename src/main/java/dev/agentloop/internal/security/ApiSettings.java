package dev.agentloop.internal.security;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import java.util.List;

/**
 * AgentLoop's REST API ({@code agentloop.api.*}, bound and validated by package {@code config}): which
 * paths are AgentLoop's, and so which paths its authentication covers. Here rather than in
 * {@code web}, which serves the API, because security, below web, must know them too. Immutable.
 *
 * @param basePath where it is served, e.g. `/api` (`/api/runs`, `/api/agents`, `/api/evaluations`, `/api/breakers`,
 *     `/api/openapi.json`); AgentLoop's authentication covers this path and nothing else of the application
 */
public record ApiSettings(@NotBlank @Pattern(regexp = "/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]",
    message = "must start with / and not end with /, e.g. /api or /agentloop/api") String basePath) {

  /**
   * AgentLoop's resources under the base path (the runs, the agents (their owners, versions and migrations), the breakers, the API's OpenAPI document); the
   * application may have paths of its own beside them.
   */
  public static final List<String> RESOURCES = List.of("runs", "agents", "evaluations", "breakers", "openapi.json");

  /** Servlet URL patterns of AgentLoop's resources ({@code <base>/runs/*} covers {@code <base>/runs} too). */
  public List<String> urlPatterns() {
    return RESOURCES.stream().map(resource -> basePath + "/" + resource + "/*").toList();
  }

  /** Whether a path (within the servlet context) is one of AgentLoop's, and not the application's. */
  public boolean covers(String path) {
    return path != null && RESOURCES.stream().map(resource -> basePath + "/" + resource)
        .anyMatch(resource -> path.equals(resource) || path.startsWith(resource + "/"));
  }
}
