package dev.agentloop.internal.security;

import java.util.List;
import org.camunda.bpm.engine.IdentityService;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;

/**
 * HTTP Basic credentials checked against the engine's users, so that Camunda users reach AgentLoop's
 * API in a host whose own users live elsewhere. Only loaded where Spring Security is; thread-safe.
 */
final class CamundaUserAuthentication implements AuthenticationProvider {

  private final IdentityService identity;

  CamundaUserAuthentication(IdentityService identity) {
    this.identity = identity;
  }

  @Override
  public Authentication authenticate(Authentication authentication) {
    String userId = authentication.getName();
    Object password = authentication.getCredentials();
    if (userId == null || userId.isEmpty() || password == null || !identity.checkPassword(userId, password.toString())) {
      throw new BadCredentialsException("not a Camunda user with this password");
    }
    return UsernamePasswordAuthenticationToken.authenticated(userId, null, List.of());
  }

  @Override
  public boolean supports(Class<?> authentication) {
    return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
  }
}
