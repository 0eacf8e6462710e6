package dev.agentloop.internal.trace;

/**
 * How AgentLoop treats its tables at start ({@code agentloop.database.*}, bound by package {@code config}).
 * Immutable.
 *
 * @param schemaUpdate `true`: AgentLoop applies the scripts of its tables that the database lacks
 *     (none when it is current, so no DDL then); `false`: it only checks its tables, and the start
 *     fails naming what is missing. Unset (the default): as `camunda.bpm.database.schema-update`
 *     says for Camunda's tables (`false` there means checking here, any other value updating)
 * @param h2EngineIndex whether AgentLoop adds, on H2 only, an index to Camunda's own variable table
 *     (`ACT_RU_VARIABLE (EXECUTION_ID_, TASK_ID_)`) that keeps completing a task independent of the
 *     number of running instances; default `false`: AgentLoop changes none of Camunda's tables
 */
public record DatabaseSettings(Boolean schemaUpdate, boolean h2EngineIndex) {

  /** Whether AgentLoop may apply its scripts, given Camunda's own {@code schema-update} value. */
  public boolean updates(String camundaSchemaUpdate) {
    if (schemaUpdate != null) {
      return schemaUpdate;
    }
    return camundaSchemaUpdate == null || !camundaSchemaUpdate.strip().equalsIgnoreCase("false");
  }
}
