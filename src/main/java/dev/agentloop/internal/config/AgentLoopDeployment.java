package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.definition.AgentsAsTools;
import dev.agentloop.internal.security.ReservedForms;
import dev.agentloop.internal.agent.definition.DeploymentSettings;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.RepositoryService;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.repository.Deployment;
import org.camunda.bpm.engine.repository.DeploymentBuilder;
import org.camunda.bpm.engine.repository.DeploymentWithDefinitions;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.engine.spring.SpringProcessEngineConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.io.Resource;

/**
 * What AgentLoop deploys itself, whatever the application's own deployment does: the forms of the
 * review tasks and (unless switched off) the default agent, under {@code agentloop.deployment.default-agent-key}
 * ({@code react-agent} unless set), read from AgentLoop's own jar ({@link ShippedFiles}). They form the deployment
 * {@value #NAME}, with duplicate filtering, so a restart with unchanged files deploys nothing and a
 * changed file becomes a new version of that file only. They are deployed under their usual
 * names, {@code processes/<key>.bpmn} and {@code forms/<name>.form}.
 *
 * <p>The application's own process of that key wins: when the application's deployment resources define a
 * process of that key, or the latest deployed version of it does not come from AgentLoop's deployment, the
 * default agent is not deployed, with one line in the log that says why and how to give it another key. So a
 * new AgentLoop release never puts its changed default agent over a team's own. The start says which key the
 * default agent has.
 *
 * <p>The ids of its forms are reserved ({@link ReservedForms}): only this deployment deploys them. Its default agent
 * may name agents of the application in {@code agentloop.agent.allowed-tools}: the application deploys them right
 * after this deployment, so while it runs their keys count as agents ({@link AgentsAsTools#whileAnnounced}).
 *
 * <p>An engine plugin, so that it deploys once the engine is built and before the Spring configuration
 * deploys the application's resources. An application whose deployment pattern also matches these
 * files (a copy on its class path) would deploy them a second time in its own deployment; {@link #postInit}
 * takes the ones of the same name and content out of it.
 */
final class AgentLoopDeployment extends AbstractProcessEnginePlugin {

  static final String NAME = "agentloop";
  private static final Pattern PROCESS_ID = Pattern.compile("<(\\w+:)?process\\b[^>]*\\bid\\s*=\\s*[\"']([^\"']+)[\"']");

  private static final String OTHER_KEY = "; to have AgentLoop's default agent beside it, give it another key with"
      + " agentloop.deployment.default-agent-key";

  private static final Logger LOG = LoggerFactory.getLogger(AgentLoopDeployment.class);

  private final boolean defaultAgent;
  /** The key the default agent is deployed under ({@code agentloop.deployment.default-agent-key}). */
  private final String key;
  private final Pattern keysProcess;
  /** The resource name of the default agent in the deployment, after its key. */
  private final String agentResource;
  private final ShippedFiles shipped;
  /** The application's own resource that defines {@code react-agent}, if it deploys one. */
  private volatile String applicationsDefaultAgent;
  /** The keys of the processes the application deploys at start, right after this deployment. */
  private volatile Set<String> applicationsKeys = Set.of();

  private AgentLoopDeployment(DeploymentSettings settings, ShippedFiles shipped) {
    this.defaultAgent = settings.defaultAgent();
    this.key = settings.defaultAgentKey();
    this.keysProcess = Pattern.compile("<(\\w+:)?process\\b[^>]*\\bid\\s*=\\s*[\"']" + Pattern.quote(key) + "[\"']");
    this.agentResource = "processes/" + key + ".bpmn";
    this.shipped = shipped;
  }

  /** The ids of AgentLoop's forms, which nobody else deploys ({@link ReservedForms}). */
  Set<String> formIds() {
    return ReservedForms.idsOf(shipped.files());
  }

  /** Reads AgentLoop's forms and default agent from the jar (or folder) this class was loaded from. */
  static AgentLoopDeployment load(DeploymentSettings settings) {
    return new AgentLoopDeployment(settings, ShippedFiles.load(settings.defaultAgentKey()));
  }

  /** After every plugin's preInit, so whatever set the application's deployment resources has run. */
  @Override
  public void postInit(ProcessEngineConfigurationImpl configuration) {
    if (configuration instanceof SpringProcessEngineConfiguration spring && spring.getDeploymentResources() != null) {
      spring.setDeploymentResources(withoutOurs(spring.getDeploymentResources()));
      applicationsDefaultAgent = Arrays.stream(spring.getDeploymentResources())
          .filter(this::definesDefaultAgent).map(Resource::getDescription).findFirst().orElse(null);
      applicationsKeys = Arrays.stream(spring.getDeploymentResources())
          .flatMap(resource -> processKeys(resource).stream()).collect(Collectors.toUnmodifiableSet());
    }
  }

  /** Deploys what changed since the last start; the engine's duplicate filtering compares file by file. */
  @Override
  public void postProcessEngineBuild(ProcessEngine engine) {
    boolean withAgent = defaultAgent && !applicationHasItsOwn(engine.getRepositoryService());
    DeploymentBuilder builder = engine.getRepositoryService().createDeployment()
        .name(NAME).source(NAME).enableDuplicateFiltering(true);
    List<String> deployed = new ArrayList<>();
    shipped.files().forEach((name, content) -> {
      if (withAgent || !name.equals(ShippedFiles.DEFAULT_AGENT)) {
        String deployedAs = name.equals(ShippedFiles.DEFAULT_AGENT) ? agentResource : name;
        builder.addInputStream(deployedAs, new ByteArrayInputStream(content));
        deployed.add(deployedAs);
      }
    });
    // the default agent may name an agent of the application's, which is deployed right after this
    DeploymentWithDefinitions deployment = ReservedForms.asAgentLoop(
        () -> AgentsAsTools.whileAnnounced(applicationsKeys, builder::deployWithResult));
    LOG.info("AgentLoop deployment '{}': {} ({}, {} process definition(s) new)", NAME, deployed,
        deployment.getId(), deployment.getDeployedProcessDefinitions() == null ? 0
            : deployment.getDeployedProcessDefinitions().size());
    if (withAgent) {
      LOG.info("AgentLoop's default agent has the key '{}' (agentloop.deployment.default-agent-key): runs started"
          + " without naming an agent go to it", key);
    }
  }

  /** Whether the application deploys or deployed a {@code react-agent} of its own; says so once in the log. */
  private boolean applicationHasItsOwn(RepositoryService repository) {
    if (applicationsDefaultAgent != null) {
      LOG.info("AgentLoop does not deploy its default agent '{}': the application deploys its own from {}{}", key,
          applicationsDefaultAgent, OTHER_KEY);
      return true;
    }
    ProcessDefinition latest = repository.createProcessDefinitionQuery().processDefinitionKey(key)
        .withoutTenantId().latestVersion().singleResult();
    if (latest == null) {
      return false;
    }
    Deployment deployment = repository.createDeploymentQuery().deploymentId(latest.getDeploymentId()).singleResult();
    if (deployment == null || NAME.equals(deployment.getName())) {
      return false;
    }
    LOG.info("AgentLoop does not deploy its default agent '{}': its latest version ({}) is the application's own,"
        + " from the deployment '{}' ({}), and AgentLoop never deploys over it{}", key,
        latest.getVersion(), deployment.getName(), deployment.getId(), OTHER_KEY);
    return true;
  }

  /** The ids of the processes a diagram of the application defines; none for another file, or one unreadable. */
  private static List<String> processKeys(Resource resource) {
    String filename = resource.getFilename();
    if (filename == null || !(filename.endsWith(".bpmn") || filename.endsWith(".bpmn20.xml"))) {
      return List.of();
    }
    try {
      Matcher process = PROCESS_ID.matcher(new String(ShippedFiles.read(resource), StandardCharsets.UTF_8));
      List<String> keys = new ArrayList<>();
      while (process.find()) {
        keys.add(process.group(2));
      }
      return keys;
    } catch (IOException e) {
      return List.of();
    }
  }

  private boolean definesDefaultAgent(Resource resource) {
    String filename = resource.getFilename();
    if (filename == null || !(filename.endsWith(".bpmn") || filename.endsWith(".bpmn20.xml"))) {
      return false;
    }
    try {
      return keysProcess.matcher(new String(ShippedFiles.read(resource), StandardCharsets.UTF_8)).find();
    } catch (IOException e) {
      return false;
    }
  }

  /** The application's deployment resources without AgentLoop's own files (same name, same content). */
  private Resource[] withoutOurs(Resource[] applicationResources) {
    return Arrays.stream(applicationResources).filter(resource -> {
      boolean ours = shipped.contains(resource);
      if (ours) {
        LOG.info("{} is deployed by AgentLoop as part of the deployment '{}', not by the application's own", resource,
            NAME);
      }
      return !ours;
    }).toArray(Resource[]::new);
  }


}
