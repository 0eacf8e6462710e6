package dev.agentloop.config;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.repository.DeploymentBuilder;
import org.camunda.bpm.engine.repository.DeploymentWithDefinitions;
import org.camunda.bpm.engine.spring.SpringProcessEngineConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;
import org.springframework.core.io.UrlResource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * What AgentLoop deploys itself, whatever the application's own deployment does: the forms of the
 * review tasks and (unless switched off) the default agent {@code react-agent}, read from AgentLoop's
 * own jar (or classes folder), never from elsewhere on the class path. They form the deployment
 * {@value #NAME}, with duplicate filtering, so a restart with unchanged files deploys nothing and a
 * changed file becomes a new version of that file only.
 *
 * <p>An engine plugin, so that it deploys once the engine is built and before the Spring configuration
 * deploys the application's resources. An application whose deployment pattern also matches these
 * files (Camunda's default, {@code classpath*:**}{@code /*.bpmn}, does) would deploy them a second
 * time in its own deployment; {@link #postInit} takes them out of it.
 */
final class AgentLoopDeployment extends AbstractProcessEnginePlugin {

  static final String NAME = "agentloop";
  static final String DEFAULT_AGENT = "processes/react-agent.bpmn";
  private static final String FORMS = "forms/*.form";

  private static final Logger LOG = LoggerFactory.getLogger(AgentLoopDeployment.class);

  private final boolean defaultAgent;
  private final Map<String, byte[]> resources;

  private AgentLoopDeployment(boolean defaultAgent, Map<String, byte[]> resources) {
    this.defaultAgent = defaultAgent;
    this.resources = resources;
  }

  /** Reads AgentLoop's forms and default agent from the jar (or folder) this class was loaded from. */
  static AgentLoopDeployment load(boolean defaultAgent) {
    String root = ownRoot();
    Map<String, byte[]> resources = new LinkedHashMap<>();
    try {
      for (Resource form : new PathMatchingResourcePatternResolver(AgentLoopDeployment.class.getClassLoader())
          .getResources(root + FORMS)) {
        resources.put("forms/" + form.getFilename(), read(form));
      }
      resources.put(DEFAULT_AGENT, read(new UrlResource(root + DEFAULT_AGENT)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read AgentLoop's forms and default agent from " + root, e);
    }
    if (resources.keySet().stream().noneMatch(name -> name.startsWith("forms/"))) {
      throw new IllegalStateException("AgentLoop's forms are missing from " + root + FORMS);
    }
    return new AgentLoopDeployment(defaultAgent, resources);
  }

  /** After every plugin's preInit, so whatever set the application's deployment resources has run. */
  @Override
  public void postInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration instanceof SpringProcessEngineConfiguration spring && spring.getDeploymentResources() != null) {
      spring.setDeploymentResources(withoutOurs(spring.getDeploymentResources()));
    }
  }

  /** Deploys what changed since the last start; the engine's duplicate filtering compares file by file. */
  @Override
  public void postProcessEngineBuild(ProcessEngine engine) {
    DeploymentBuilder builder = engine.getRepositoryService().createDeployment()
        .name(NAME).source(NAME).enableDuplicateFiltering(true);
    List<String> deployed = new ArrayList<>();
    resources.forEach((name, content) -> {
      if (defaultAgent || !name.equals(DEFAULT_AGENT)) {
        builder.addInputStream(name, new ByteArrayInputStream(content));
        deployed.add(name);
      }
    });
    DeploymentWithDefinitions deployment = builder.deployWithResult();
    LOG.info("AgentLoop deployment '{}': {} ({}, {} process definition(s) new)", NAME, deployed,
        deployment.getId(), deployment.getDeployedProcessDefinitions() == null ? 0
            : deployment.getDeployedProcessDefinitions().size());
  }

  /** The application's deployment resources without AgentLoop's own files (same name, same content). */
  private Resource[] withoutOurs(Resource[] applicationResources) {
    return Arrays.stream(applicationResources).filter(resource -> {
      boolean ours = isOurs(resource);
      if (ours) {
        LOG.info("{} is deployed by AgentLoop as part of the deployment '{}', not by the application's own", resource,
            NAME);
      }
      return !ours;
    }).toArray(Resource[]::new);
  }

  private boolean isOurs(Resource resource) {
    String filename = resource.getFilename();
    if (filename == null) {
      return false;
    }
    for (Map.Entry<String, byte[]> entry : resources.entrySet()) {
      if (entry.getKey().endsWith("/" + filename)) {
        try {
          return Arrays.equals(entry.getValue(), read(resource));
        } catch (IOException e) {
          return false;
        }
      }
    }
    return false;
  }

  /** The root of the jar or classes folder this class comes from, as a URL ending in '/'. */
  private static String ownRoot() {
    String self = AgentLoopDeployment.class.getName().replace('.', '/') + ".class";
    URL url = AgentLoopDeployment.class.getClassLoader().getResource(self);
    if (url == null) {
      throw new IllegalStateException("cannot locate " + self);
    }
    String location = url.toString();
    return location.substring(0, location.length() - self.length());
  }

  private static byte[] read(Resource resource) throws IOException {
    try (InputStream in = resource.getInputStream()) {
      return in.readAllBytes();
    }
  }
}
