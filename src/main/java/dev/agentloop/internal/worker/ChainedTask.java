package dev.agentloop.internal.worker;

import java.util.Date;
import java.util.Map;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.variable.VariableMap;
import org.camunda.bpm.engine.variable.Variables;

/**
 * A task this worker locked in the transaction that completed the step before it, seen as a
 * {@link LockedExternalTask} like a fetched one. It carries no variables (agent tasks fetch none)
 * and no error details.
 */
record ChainedTask(ExternalTask task, String workerId, Date lockExpirationTime) implements LockedExternalTask {

  @Override
  public String getId() {
    return task.getId();
  }

  @Override
  public String getTopicName() {
    return task.getTopicName();
  }

  @Override
  public String getWorkerId() {
    return workerId;
  }

  @Override
  public Date getLockExpirationTime() {
    return lockExpirationTime;
  }

  @Override
  public Date getCreateTime() {
    return task.getCreateTime();
  }

  @Override
  public String getProcessInstanceId() {
    return task.getProcessInstanceId();
  }

  @Override
  public String getExecutionId() {
    return task.getExecutionId();
  }

  @Override
  public String getActivityId() {
    return task.getActivityId();
  }

  @Override
  public String getActivityInstanceId() {
    return task.getActivityInstanceId();
  }

  @Override
  public String getProcessDefinitionId() {
    return task.getProcessDefinitionId();
  }

  @Override
  public String getProcessDefinitionKey() {
    return task.getProcessDefinitionKey();
  }

  @Override
  public String getProcessDefinitionVersionTag() {
    return task.getProcessDefinitionVersionTag();
  }

  @Override
  public Integer getRetries() {
    return task.getRetries();
  }

  @Override
  public String getErrorMessage() {
    return task.getErrorMessage();
  }

  @Override
  public String getErrorDetails() {
    return null;
  }

  @Override
  public VariableMap getVariables() {
    return Variables.createVariables();
  }

  @Override
  public String getTenantId() {
    return task.getTenantId();
  }

  @Override
  public long getPriority() {
    return task.getPriority();
  }

  @Override
  public String getBusinessKey() {
    return task.getBusinessKey();
  }

  @Override
  public Map<String, String> getExtensionProperties() {
    return task.getExtensionProperties() == null ? Map.of() : task.getExtensionProperties();
  }
}
