package dev.agentloop.internal.security;

import dev.agentloop.internal.agent.definition.AgentDefinitions;
import java.util.Set;
import dev.agentloop.internal.agent.definition.DeploymentSettings;
import javax.sql.DataSource;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter;
import org.camunda.bpm.engine.rest.security.auth.impl.HttpBasicAuthenticationProvider;
import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.config.annotation.authentication.configuration.AuthenticationConfiguration;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.util.ClassUtils;

/**
 * Authentication of AgentLoop's REST API (its base path only, never the application's other paths),
 * the groups and their rights, and only when asked for: authentication of the engine REST API. The filters
 * only in a servlet web application; the groups and rights in any.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

  private static final String SPRING_SECURITY = "org.springframework.security.config.annotation.web.builders.HttpSecurity";

  @Bean
  @ConditionalOnProperty(name = "agentloop.security.groups", havingValue = "true")
  AccessBootstrap accessBootstrap(SecuritySettings security, ReservedForms forms, AgentOwnership owners,
      org.springframework.beans.factory.BeanFactory beans) {
    return new AccessBootstrap(security.secureEngineRest(), forms.ids(), owners, beans::containsBean);
  }

  /** Who may evaluate and promote candidates of an agent; an analyst's candidate is held to the analysts' sandbox. */
  @Bean
  EvaluationAccess evaluationAccess(ProcessEngine engine, AgentOwnership owners, ReservedForms forms,
      org.springframework.beans.factory.BeanFactory beans) {
    return new EvaluationAccess(engine, owners, AnalystDeployments.sandbox(forms.ids(), beans::containsBean));
  }

  /** Who owns which agent key; AgentLoop's default agent is nobody's but the application's. */
  @Bean
  AgentOwnership agentOwnership(DataSource dataSource, ObjectProvider<ProcessEngine> engine,
      DeploymentSettings deployment) {
    return new AgentOwnership(new JdbcTemplate(dataSource), engine, Set.of(deployment.defaultAgentKey()));
  }

  @Bean
  RunAccess runAccess(ProcessEngine engine, AgentOwnership owners) {
    return new RunAccess(engine, owners);
  }

  /** AgentLoop's own authentication of its REST API, where the application serves servlets. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class ApiAuthentication {

    @Bean
    FilterRegistrationBean<ApiAuthenticationFilter> apiAuthentication(ProcessEngine engine, ApiSettings api,
        ObjectProvider<ProtocolPath> protocols) {
      boolean webapps = ClassUtils.isPresent("org.camunda.bpm.webapp.impl.security.auth.AuthenticationUtil",
          SecurityConfiguration.class.getClassLoader());
      boolean springSecurity = ClassUtils.isPresent(SPRING_SECURITY, SecurityConfiguration.class.getClassLoader());
      var registration = new FilterRegistrationBean<>(new ApiAuthenticationFilter(engine, webapps, springSecurity));
      registration.setName("agentloop-api-authentication");
      // AgentLoop's resources only: the application's own paths under the same base path (a host's
      // /api/orders) stay untouched
      registration.setUrlPatterns(ProtocolPath.urlPatterns(api, protocols.orderedStream()));
      return registration;
    }
  }

  /**
   * Camunda's own HTTP Basic authentication for the engine REST API, as its documentation sets it up,
   * and after it the fence that keeps {@code agent-workers} to serving tools; only with
   * {@code agentloop.security.secure-engine-rest=true}, since an application that embeds AgentLoop
   * decides itself how its engine REST API is secured.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(ProcessEngineAuthenticationFilter.class)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  @ConditionalOnProperty(name = "agentloop.security.secure-engine-rest", havingValue = "true")
  static class EngineRestAuthentication {

    @Bean
    FilterRegistrationBean<EngineRestGate> engineRestAuthentication(ProcessEngine engine, AgentDefinitions definitions,
        @Value("${spring.jersey.application-path:/engine-rest}") String path) {
      var registration = new FilterRegistrationBean<>(new EngineRestGate(engine, path, definitions));
      registration.setName("camunda-engine-rest-authentication");
      registration.addInitParameter("authentication-provider", HttpBasicAuthenticationProvider.class.getName());
      registration.addUrlPatterns(path + "/*");
      return registration;
    }
  }

  /** The engine REST API's answer to a deployment says AgentLoop's warnings too, whoever secures that API. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(ProcessEngineAuthenticationFilter.class)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class EngineRestDeployments {

    @Bean
    FilterRegistrationBean<DeploymentAnswers> agentLoopDeploymentAnswers(
        @Value("${spring.jersey.application-path:/engine-rest}") String path) {
      var registration = new FilterRegistrationBean<>(new DeploymentAnswers());
      registration.setName("agentloop-deployment-answers");
      registration.addUrlPatterns(path + "/*");
      return registration;
    }
  }

  /**
   * Where the application has Spring Security, AgentLoop's paths get a chain of their own, first of all
   * chains, see {@link ApiSecurityChain}; the application's chains keep every other path.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = SPRING_SECURITY)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class SpringSecurityChain {

    @Bean
    @Order(Ordered.HIGHEST_PRECEDENCE)
    SecurityFilterChain agentLoopApiSecurity(HttpSecurity http, ApiSettings api, ProcessEngine engine,
        ObjectProvider<AuthenticationConfiguration> hostAuthentication, ObjectProvider<ProtocolPath> protocols)
        throws Exception {
      return ApiSecurityChain.build(http, ProtocolPath.urlPatterns(api, protocols.orderedStream()), engine,
          hostAuthentication);
    }
  }

  /** The webapps' second copy of the engine REST API is closed to workers too. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.camunda.bpm.webapp.impl.security.auth.AuthenticationUtil")
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class WebappFence {

    @Bean
    FilterRegistrationBean<WebappWorkerGate> webappWorkerGate(ProcessEngine engine, CamundaBpmProperties camunda) {
      String webapps = camunda.getWebapp().getApplicationPath();
      var registration = new FilterRegistrationBean<>(new WebappWorkerGate(engine.getName(), webapps));
      registration.setName("agentloop-webapp-worker-gate");
      registration.addUrlPatterns(webapps + "/api/*");
      return registration;
    }
  }
}
