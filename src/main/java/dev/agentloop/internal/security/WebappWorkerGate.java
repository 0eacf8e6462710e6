package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The Camunda webapps serve the engine REST API a second time, under {@code /camunda/api/engine},
 * to whoever has a webapp session; any user may log in to the welcome page, workers included. A
 * session of a member of {@code agent-workers} gets 403 for every webapp API but logging in and out,
 * so worker credentials reach the engine only through {@link EngineRestGate}. Only registered when the
 * webapps are on the class path. Thread-safe.
 */
class WebappWorkerGate extends OncePerRequestFilter {

  private final String engineName;
  private final String authPath;

  /** @param webappPath where the webapps are served, e.g. {@code /camunda} */
  WebappWorkerGate(String engineName, String webappPath) {
    this.engineName = engineName;
    this.authPath = webappPath + "/api/admin/auth/";
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    Optional<Caller> caller = path.startsWith(authPath) ? Optional.empty() : WebappSessions.caller(request, engineName);
    if (caller.isPresent() && caller.get().groupIds().contains(AgentLoopGroups.WORKERS)) {
      ProblemResponses.write(response, HttpStatus.FORBIDDEN, "user " + caller.get().userId() + " is in "
          + AgentLoopGroups.WORKERS + ", whose users serve tool tasks through /engine-rest and nothing else");
      return;
    }
    chain.doFilter(request, response);
  }
}
