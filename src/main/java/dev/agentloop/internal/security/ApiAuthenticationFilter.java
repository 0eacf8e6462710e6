package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.Set;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Every {@code /api} request runs as a known user, so that Camunda's authorization decides what it
 * may do and human steps record who took them. A caller either sends HTTP Basic credentials of an
 * engine user (scripts, other services), or is logged in to the Camunda webapps (a Cockpit
 * plugin); a logged-in caller must send the webapps' CSRF token with every change. Where the application
 * has Spring Security, the credentials were checked by AgentLoop's chain there ({@link ApiSecurityChain})
 * and its principal is taken as the Camunda user of the same id. Users of
 * {@code agent-workers} are refused: they only serve tool tasks, see {@link EngineRestGate}.
 */
class ApiAuthenticationFilter extends OncePerRequestFilter {

  private static final String BASIC = "Basic ";
  private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

  private final ProcessEngine engine;
  private final boolean webappsPresent;
  private final boolean springSecurityPresent;

  ApiAuthenticationFilter(ProcessEngine engine, boolean webappsPresent, boolean springSecurityPresent) {
    this.engine = engine;
    this.webappsPresent = webappsPresent;
    this.springSecurityPresent = springSecurityPresent;
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    String authorization = request.getHeader("Authorization");
    // with Spring Security, AgentLoop's chain there has checked this request's credentials already
    Optional<Caller> caller = springSecurityPresent
        ? SpringSecurityCallers.current(engine.getIdentityService()) : Optional.empty();
    if (caller.isEmpty() && authorization != null && authorization.startsWith(BASIC)) {
      caller = fromBasicCredentials(authorization.substring(BASIC.length()));
      if (caller.isEmpty()) {
        refuse(response, HttpStatus.UNAUTHORIZED, "unknown user or wrong password");
        return;
      }
    } else if (caller.isEmpty()) {
      caller = webappsPresent ? WebappSessions.caller(request, engine.getName()) : Optional.empty();
      if (caller.isEmpty()) {
        refuse(response, HttpStatus.UNAUTHORIZED,
            "send HTTP Basic credentials of a Camunda user (curl -u user:password), or log in to the Camunda webapps");
        return;
      }
      if (!SAFE_METHODS.contains(request.getMethod()) && !WebappSessions.hasCsrfToken(request)) {
        refuse(response, HttpStatus.FORBIDDEN,
            "a change from a webapp session must carry the session's CSRF token in the X-XSRF-TOKEN header");
        return;
      }
    }
    if (caller.get().groupIds().contains(AgentLoopGroups.WORKERS)) {
      refuse(response, HttpStatus.FORBIDDEN, "user " + caller.get().userId() + " is in " + AgentLoopGroups.WORKERS
          + ", whose users serve tool tasks through /engine-rest and nothing else; use another user for /api");
      return;
    }
    IdentityService identity = engine.getIdentityService();
    identity.setAuthentication(caller.get().userId(), caller.get().groupIds(), caller.get().tenantIds());
    try {
      chain.doFilter(request, response);
    } finally {
      identity.clearAuthentication();
    }
  }

  private Optional<Caller> fromBasicCredentials(String encoded) {
    String credentials;
    try {
      credentials = new String(Base64.getDecoder().decode(encoded.trim()), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    int colon = credentials.indexOf(':');
    if (colon <= 0) {
      return Optional.empty();
    }
    String userId = credentials.substring(0, colon);
    IdentityService identity = engine.getIdentityService();
    if (!identity.checkPassword(userId, credentials.substring(colon + 1))) {
      return Optional.empty();
    }
    return Optional.of(Caller.of(identity, userId));
  }

  private static void refuse(HttpServletResponse response, HttpStatus status, String detail) throws IOException {
    ProblemResponses.write(response, status, detail);
  }
}
