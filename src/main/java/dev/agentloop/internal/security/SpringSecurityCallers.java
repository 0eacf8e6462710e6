package dev.agentloop.internal.security;

import java.util.Optional;
import org.camunda.bpm.engine.IdentityService;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;

/**
 * The caller Spring Security authenticated for this request (the host's users, or Camunda users through
 * {@link CamundaUserAuthentication}), as the Camunda user of the same id: the engine's groups and tenants
 * of that id decide what the caller may do, not the host's roles. Only loaded where Spring Security is.
 */
final class SpringSecurityCallers {

  private SpringSecurityCallers() {}

  static Optional<Caller> current(IdentityService identity) {
    Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
    if (authentication == null || !authentication.isAuthenticated()
        || authentication instanceof AnonymousAuthenticationToken) {
      return Optional.empty();
    }
    return Optional.of(Caller.of(identity, authentication.getName()));
  }
}
