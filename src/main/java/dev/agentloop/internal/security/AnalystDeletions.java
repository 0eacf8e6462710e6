package dev.agentloop.internal.security;

import java.lang.reflect.Field;
import java.util.List;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.cmd.DeleteDeploymentCmd;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.impl.interceptor.Command;
import org.camunda.bpm.engine.impl.interceptor.CommandInterceptor;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An analyst never deletes a deployment with {@code cascade} while it holds runs that others started. Camunda gives the
 * deployer every right on the deployment it made, and a cascading delete takes the deployment's process instances and
 * their history with it: an analyst who deployed an agent that an operator then ran could delete the operator's runs.
 * So a cascading delete by an analyst ({@link DeployRights}) is refused with {@code 403} where a run of the
 * deployment's definitions, running or ended, was started by anyone else (a person, another agent's call, a business
 * process); runs the analyst started go with it. On every path the engine deletes by (its REST API, Cockpit, Java),
 * since it is an interceptor of the engine's commands. Thread-safe.
 */
class AnalystDeletions extends CommandInterceptor {

  private static final Logger LOG = LoggerFactory.getLogger(AnalystDeletions.class);

  private final ProcessEngineConfigurationImpl engine;

  AnalystDeletions(ProcessEngineConfigurationImpl engine) {
    this.engine = engine;
  }

  @Override
  public <T> T execute(Command<T> command) {
    if (command instanceof DeleteDeploymentCmd delete && Boolean.TRUE.equals(field(delete, "cascade"))) {
      Authentication user = engine.getIdentityService().getCurrentAuthentication();
      if (user != null && DeployRights.isAnalystOnly(engine, user.getUserId(), user.getGroupIds())) {
        refuseWhereOthersRan((String) field(delete, "deploymentId"), user.getUserId());
      }
    }
    return next.execute(command);
  }

  private void refuseWhereOthersRan(String deploymentId, String userId) {
    long others = engine.getCommandExecutorTxRequired().execute(context -> context.runWithoutAuthorization(() -> {
      List<String> definitions = engine.getRepositoryService().createProcessDefinitionQuery()
          .deploymentId(deploymentId).list().stream().map(ProcessDefinition::getId).toList();
      var history = engine.getHistoryService();
      long all = 0;
      long own = 0;
      for (String definition : definitions) {
        all += history.createHistoricProcessInstanceQuery().processDefinitionId(definition).count();
        own += history.createHistoricProcessInstanceQuery().processDefinitionId(definition).startedBy(userId).count();
      }
      // without history, every running instance counts as someone else's
      long running = engine.getRuntimeService().createProcessInstanceQuery().deploymentId(deploymentId).count();
      return all == 0 ? running : all - own;
    }));
    if (others > 0) {
      String message = "user " + userId + " may not delete the deployment " + deploymentId + " with cascade: it holds "
          + others + (others == 1 ? " run" : " runs") + " that others started, which the cascade would delete with"
          + " their history. Nothing was deleted; delete it without cascade once its runs have ended, or ask an"
          + " administrator";
      LOG.info("AGENTLOOP-103 {}", message);
      throw new AuthorizationException(message);
    }
  }

  /** A field of Camunda's command, which has no getter for it. */
  private static Object field(DeleteDeploymentCmd command, String name) {
    try {
      Field field = DeleteDeploymentCmd.class.getDeclaredField(name);
      field.setAccessible(true);
      return field.get(command);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Camunda's DeleteDeploymentCmd has no field " + name + " any more: AgentLoop"
          + " cannot tell whether an analyst's deletion cascades", e);
    }
  }
}
