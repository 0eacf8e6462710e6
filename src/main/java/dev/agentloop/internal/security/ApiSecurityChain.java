package dev.agentloop.internal.security;

import java.util.List;
import org.camunda.bpm.engine.ProcessEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.authentication.configuration.AuthenticationConfiguration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.AuthenticationEntryPoint;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.context.RequestAttributeSecurityContextRepository;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * AgentLoop's own {@link SecurityFilterChain}, for its paths only and ordered before the host's chains
 * (see {@link SecurityConfiguration}), so that a host's rules for {@code /api/**} or for everything never
 * shut AgentLoop's callers out, and never apply to the host's own paths beside AgentLoop's.
 *
 * <p>HTTP Basic credentials are checked against the engine's users first, then against the host's own
 * authentication (its {@code UserDetailsService} or {@code AuthenticationManager}); wrong credentials are
 * a 401 problem document. A request without credentials passes on to {@link ApiAuthenticationFilter},
 * which accepts a Camunda webapp session (with its CSRF token on changes) or refuses with 401. Whoever
 * authenticated, the caller is the Camunda user of the same id, and Camunda's authorization decides.
 */
final class ApiSecurityChain {

  private static final Logger LOG = LoggerFactory.getLogger(ApiSecurityChain.class);

  private ApiSecurityChain() {}

  /** @param urlPatterns the servlet URL patterns of the API's resources and AgentLoop's protocols */
  static SecurityFilterChain build(HttpSecurity http, List<String> urlPatterns, ProcessEngine engine,
      ObjectProvider<AuthenticationConfiguration> hostAuthentication) throws Exception {
    AuthenticationManager host = hostManager(hostAuthentication);
    AuthenticationEntryPoint refuse = (request, response, e) ->
        ProblemResponses.write(response, HttpStatus.UNAUTHORIZED,
            "unknown user or wrong password: send HTTP Basic credentials of a Camunda user or of the application's"
                + " own users, or log in to the Camunda webapps");
    List<RequestMatcher> paths = urlPatterns.stream()
        .map(pattern -> (RequestMatcher) PathPatternRequestMatcher.withDefaults().matcher(pattern.replace("/*", "/**")))
        .toList();
    http.securityMatcher(new OrRequestMatcher(paths))
        // AgentLoop's filter and Camunda's authorization decide, as without Spring Security
        .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
        // AgentLoop checks the webapps' CSRF token for session callers itself; Basic callers send none
        .csrf(csrf -> csrf.disable())
        // what authenticated a request counts for that request only: a login to the host's own pages (a
        // session, without a CSRF token AgentLoop could check) never carries over to AgentLoop's API
        .securityContext(context -> context.securityContextRepository(new RequestAttributeSecurityContextRepository()))
        .sessionManagement(session -> session.sessionCreationPolicy(SessionCreationPolicy.NEVER))
        .requestCache(cache -> cache.disable())
        .authenticationManager(new ProviderManager(List.of(new CamundaUserAuthentication(engine.getIdentityService())),
            host))
        .httpBasic(basic -> basic.authenticationEntryPoint(refuse))
        .exceptionHandling(handling -> handling.authenticationEntryPoint(refuse)
            .accessDeniedHandler((request, response, e) ->
                ProblemResponses.write(response, HttpStatus.FORBIDDEN, e.getMessage())));
    LOG.info("Spring Security is present: AgentLoop's API ({}) has its own filter chain, ordered before the"
        + " application's; Camunda users and the application's own users authenticate there", urlPatterns);
    return http.build();
  }

  /** The host's own authentication, or none (then only Camunda users authenticate with credentials). */
  private static AuthenticationManager hostManager(ObjectProvider<AuthenticationConfiguration> configuration)
      throws Exception {
    AuthenticationConfiguration host = configuration.getIfAvailable();
    return host == null ? null : host.getAuthenticationManager();
  }
}
