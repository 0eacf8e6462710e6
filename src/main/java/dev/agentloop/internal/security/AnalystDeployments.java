package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.io.ByteArrayInputStream;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.authorization.Permissions;
import org.camunda.bpm.engine.authorization.Resources;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.context.Context;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.persistence.deploy.Deployer;
import org.camunda.bpm.engine.impl.persistence.entity.DeploymentEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ResourceEntity;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.camunda.bpm.model.xml.instance.ModelElementInstance;

/**
 * Keeps {@code agent-analysts} to deploying agents. Camunda's right to deploy covers any process, so a
 * member of that group alone could otherwise deploy the host's business processes too. It runs before
 * Camunda's own deployers, so a refused deployment is refused whole, as a {@code 403} of the engine REST
 * API naming the process. An analyst who also holds another right to deploy (an engine administrator, a
 * group of the host with CREATE on deployments) is not held back here. Thread-safe.
 */
class AnalystDeployments implements Deployer {

  @Override
  public void deploy(DeploymentEntity deployment) {
    CommandContext command = Context.getCommandContext();
    Authentication user = command == null ? null : command.getAuthentication();
    if (!deployment.isNew() || user == null || user.getGroupIds() == null
        || !user.getGroupIds().contains(AgentLoopGroups.ANALYSTS) || mayDeployOtherwise(command, user)) {
      return;
    }
    for (ResourceEntity resource : deployment.getResources().values()) {
      String name = resource.getName().toLowerCase(Locale.ROOT);
      if (name.endsWith(".bpmn") || name.endsWith(".bpmn20.xml")) {
        BpmnModelInstance model = read(resource);
        for (String process : processesThatAreNoAgents(model)) {
          throw new AuthorizationException("user " + user.getUserId() + " may deploy agents only (group "
              + AgentLoopGroups.ANALYSTS + "), and process '" + process + "' in " + resource.getName() + " is no agent:"
              + " it has no service task on an agentloop.* topic. Nothing was deployed; ask an administrator to deploy it");
        }
      }
    }
  }

  /** A diagram the engine cannot read is left to the engine's parser, which says what is wrong with it. */
  private static BpmnModelInstance read(ResourceEntity resource) {
    try {
      return Bpmn.readModelFromStream(new ByteArrayInputStream(resource.getBytes()));
    } catch (RuntimeException unreadable) {
      return null;
    }
  }

  private static List<String> processesThatAreNoAgents(BpmnModelInstance model) {
    if (model == null) {
      return List.of();
    }
    Set<String> agents = new HashSet<>();
    for (ServiceTask task : model.getModelElementsByType(ServiceTask.class)) {
      if (task.getCamundaTopic() != null && task.getCamundaTopic().startsWith(ReactAgentProcess.TOPIC_PREFIX)) {
        ModelElementInstance parent = task.getParentElement();
        while (parent != null && !(parent instanceof Process)) {
          parent = parent.getParentElement();
        }
        if (parent != null) {
          agents.add(((Process) parent).getId());
        }
      }
    }
    return model.getModelElementsByType(Process.class).stream().filter(Process::isExecutable)
        .map(Process::getId).filter(id -> !agents.contains(id)).toList();
  }

  /** Engine administrators, and members of groups besides the analysts that Camunda lets deploy. */
  private static boolean mayDeployOtherwise(CommandContext command, Authentication user) {
    ProcessEngineConfigurationImpl engine = command.getProcessEngineConfiguration();
    List<String> adminGroups = engine.getAdminGroups() == null ? List.of() : engine.getAdminGroups();
    List<String> adminUsers = engine.getAdminUsers() == null ? List.of() : engine.getAdminUsers();
    if (adminUsers.contains(user.getUserId()) || user.getGroupIds().stream().anyMatch(adminGroups::contains)) {
      return true;
    }
    List<String> others = user.getGroupIds().stream().filter(group -> !group.equals(AgentLoopGroups.ANALYSTS)).toList();
    return command.runWithoutAuthorization(() -> engine.getAuthorizationService()
        .isUserAuthorized(user.getUserId(), others, Permissions.CREATE, Resources.DEPLOYMENT));
  }
}
