package dev.agentloop.internal.config;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

/**
 * What of Camunda the application has besides the engine. AgentLoop needs only the engine; the
 * webapps and the engine REST API are the host's choice, and what needs them is left out, each with
 * one INFO line, instead of failing the start or bringing them in.
 */
final class HostFeatures {

  static final String WEBAPPS = "org.camunda.bpm.webapp.impl.security.auth.AuthenticationUtil";
  static final String ENGINE_REST = "org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter";

  private static final Logger LOG = LoggerFactory.getLogger(HostFeatures.class);

  private HostFeatures() {}

  static void report(ClassLoader classLoader) {
    if (!ClassUtils.isPresent(WEBAPPS, classLoader)) {
      LOG.info("no Camunda webapps in this application: AgentLoop's Cockpit tabs and webapp sessions for its API are"
          + " left out; reviews are done through its REST API");
    }
    if (!ClassUtils.isPresent(ENGINE_REST, classLoader)) {
      LOG.info("no Camunda engine REST API in this application: remote tool workers cannot reach it, and"
          + " agentloop.security.secure-engine-rest has nothing to secure");
    }
  }
}
