package dev.agentloop.internal.security;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.FilterService;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.filter.Filter;
import org.camunda.bpm.engine.task.TaskQuery;

/**
 * The Tasklist filter "Agent reviews": the tasks offered to the user's groups, with the run's question as a column.
 * Added when missing, and a filter an earlier version made gets the column; otherwise left as an administrator
 * changed it. Filters have no unique name, so two nodes starting on an empty database in the same instant may both
 * add it (Admin deletes one).
 */
final class ReviewFilter {

  static final String NAME = "Agent reviews";

  /** Tasklist shows these variables of each task in its list: the run's question, shortened. */
  private static final List<Map<String, String>> SUBJECT_COLUMN =
      List.of(Map.of("name", ReactAgentProcess.SUBJECT.name(), "label", "Question"));

  private ReviewFilter() {}

  /** @return the filter's id */
  static String ensure(ProcessEngine engine) {
    FilterService filters = engine.getFilterService();
    AgentGrants.insertUnlessPresent(() -> filters.createFilterQuery().filterName(NAME).count() > 0, () -> {
      TaskQuery offeredToMyGroups = engine.getTaskService().createTaskQuery()
          .taskCandidateGroupInExpression("${currentUserGroups()}").includeAssignedTasks();
      Filter filter = filters.newTaskFilter(NAME).setQuery(offeredToMyGroups)
          .setProperties(Map.of("description", "Plans, questions, actions and answers of agents, offered to your groups",
              "priority", -10, "refresh", true, "variables", SUBJECT_COLUMN));
      filters.saveFilter(filter);
    });
    String id = filters.createFilterQuery().filterName(NAME).list().get(0).getId();
    // filters made by earlier versions list tasks without their question
    AgentGrants.insertUnlessPresent(() -> filters.getFilter(id).getProperties().containsKey("variables"), () -> {
      Filter filter = filters.getFilter(id);
      Map<String, Object> properties = new HashMap<>(filter.getProperties());
      properties.put("variables", SUBJECT_COLUMN);
      filters.saveFilter(filter.setProperties(properties));
    });
    return id;
  }
}
