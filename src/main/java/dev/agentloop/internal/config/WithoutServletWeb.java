package dev.agentloop.internal.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.NoneNestedConditions;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * In an application that is no servlet web application (an engine-only one, or a reactive one): AgentLoop adds
 * no web server and serves nothing (no REST API, MCP server, A2A agents or Cockpit tabs), and says so in one INFO line at start. Its agents run, and their reviews are
 * Camunda user tasks as ever, completed through Camunda's Java API or the engine's own REST API where there is one.
 */
@Configuration(proxyBeanMethods = false)
@Conditional(WithoutServletWeb.NotServletWeb.class)
class WithoutServletWeb {

  private static final Logger LOG = LoggerFactory.getLogger(WithoutServletWeb.class);

  WithoutServletWeb() {
    LOG.info("no servlet web application: AgentLoop serves no REST API, no MCP server, no A2A agents and no Cockpit"
        + " tabs here (they come with a servlet web application, such as one with the Camunda webapps); agents run,"
        + " and their reviews are Camunda user tasks");
  }

  /** Matches where {@code @ConditionalOnWebApplication(type = SERVLET)} does not. */
  static class NotServletWeb extends NoneNestedConditions {

    NotServletWeb() {
      super(ConfigurationPhase.REGISTER_BEAN);
    }

    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    static class ServletWeb {}
  }
}
