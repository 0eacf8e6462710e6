package dev.agentloop.internal.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.Optional;
import org.camunda.bpm.webapp.impl.security.auth.AuthenticationUtil;
import org.camunda.bpm.webapp.impl.security.auth.UserAuthentication;
import org.camunda.bpm.webapp.impl.security.filter.util.CsrfConstants;

/**
 * The user logged in to Cockpit or Tasklist, read from the webapps' HTTP session, so a Cockpit
 * plugin can call {@code /api} as that user. Only loaded when the Camunda webapps are on the
 * classpath.
 */
final class WebappSessions {

  private WebappSessions() {}

  static Optional<Caller> caller(HttpServletRequest request, String engineName) {
    HttpSession session = request.getSession(false);
    if (session == null || !(AuthenticationUtil.getAuthsFromSession(session)
        .getAuthenticationForProcessEngine(engineName) instanceof UserAuthentication user)) {
      return Optional.empty();
    }
    return Optional.of(new Caller(user.getIdentityId(), user.getGroupIds(), user.getTenantIds()));
  }

  /** The webapps' own CSRF rule: a changing request carries the session's token in a header. */
  static boolean hasCsrfToken(HttpServletRequest request) {
    HttpSession session = request.getSession(false);
    Object expected = session == null ? null : session.getAttribute(CsrfConstants.CSRF_TOKEN_SESSION_ATTR_NAME);
    return expected != null && expected.equals(request.getHeader(CsrfConstants.CSRF_TOKEN_HEADER_NAME));
  }
}
