package dev.agentloop.internal.history;

import java.util.EnumSet;
import java.util.Set;
import org.camunda.bpm.engine.impl.history.HistoryLevel;
import org.camunda.bpm.engine.impl.history.event.HistoryEventType;
import org.camunda.bpm.engine.impl.history.event.HistoryEventTypes;
import org.camunda.bpm.engine.impl.migration.instance.MigratingActivityInstance;
import org.camunda.bpm.engine.impl.persistence.entity.ExecutionEntity;
import org.camunda.bpm.engine.impl.persistence.entity.ExternalTaskEntity;
import org.camunda.bpm.engine.impl.pvm.process.ScopeImpl;

/**
 * The host's history level, less the events of activities marked {@link StepHistory#QUIET} and the
 * external-task log of step tasks other than their failures. Same id and name as the host's level,
 * and equal to it, because the engine checks the configured level against the database's and
 * compares it with the built-in levels ({@code equals(HISTORY_LEVEL_FULL)}).
 */
final class AgentStepHistoryLevel implements HistoryLevel {

  private static final Set<HistoryEventTypes> ACTIVITY_EVENTS = EnumSet.of(HistoryEventTypes.ACTIVITY_INSTANCE_START,
      HistoryEventTypes.ACTIVITY_INSTANCE_UPDATE, HistoryEventTypes.ACTIVITY_INSTANCE_MIGRATE,
      HistoryEventTypes.ACTIVITY_INSTANCE_END);
  /** A failure stays in the log: it says why the step was retried or ended in an incident. */
  private static final Set<HistoryEventTypes> EXTERNAL_TASK_EVENTS = EnumSet.of(HistoryEventTypes.EXTERNAL_TASK_CREATE,
      HistoryEventTypes.EXTERNAL_TASK_SUCCESS, HistoryEventTypes.EXTERNAL_TASK_DELETE);

  private final HistoryLevel host;
  private final Set<String> stepTopics;

  AgentStepHistoryLevel(HistoryLevel host, Set<String> stepTopics) {
    this.host = host;
    this.stepTopics = stepTopics;
  }

  @Override
  public int getId() {
    return host.getId();
  }

  @Override
  public String getName() {
    return host.getName();
  }

  @Override
  public boolean isHistoryEventProduced(HistoryEventType eventType, Object entity) {
    boolean produced = host.isHistoryEventProduced(eventType, entity);
    if (!produced || entity == null) {
      // without an entity the engine asks whether the level produces such events at all: as the host's
      return produced;
    }
    if (eventType instanceof HistoryEventTypes type && ACTIVITY_EVENTS.contains(type)) {
      return !quiet(entity);
    }
    if (eventType instanceof HistoryEventTypes type && EXTERNAL_TASK_EVENTS.contains(type)
        && entity instanceof ExternalTaskEntity task) {
      return !stepTopics.contains(task.getTopicName());
    }
    return true;
  }

  /** For a migration, the activity it comes from: when that one's instance was left out, there is nothing to move. */
  private static boolean quiet(Object entity) {
    ScopeImpl activity = entity instanceof ExecutionEntity execution ? execution.getActivity()
        : entity instanceof MigratingActivityInstance migrating ? migrating.getSourceScope() : null;
    return activity != null && Boolean.TRUE.equals(activity.getProperty(StepHistory.QUIET));
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof HistoryLevel level && level.getId() == getId();
  }

  @Override
  public int hashCode() {
    return getId();
  }

  @Override
  public String toString() {
    return host + " without agent steps";
  }
}
