package dev.agentloop.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import org.apache.ibatis.exceptions.PersistenceException;
import org.camunda.bpm.engine.ProcessEngineException;
import org.junit.jupiter.api.Test;

/** What an incident says about a failed step: the real cause, also where the engine's message hides it. */
class TaskFailureMessageTest {

  @Test
  void should_name_the_databases_refusal_behind_the_engines_persistence_message() {
    SQLException refused = new SQLException("ERROR: invalid byte sequence for encoding \"UTF8\": 0x00");
    ProcessEngineException failure = new ProcessEngineException(
        "An exception occurred in the persistence layer. Please check the server logs for a detailed message.",
        new PersistenceException("### Error updating database", refused));

    String message = TaskFailureMessage.message(failure, 0, Duration.ofSeconds(5));

    assertThat(message).startsWith("An exception occurred in the persistence layer")
        .contains("caused by SQLException: ERROR: invalid byte sequence for encoding \"UTF8\": 0x00")
        .endsWith("an operator retries the incident (Cockpit)");
  }

  @Test
  void should_keep_a_message_that_names_its_cause_as_it_is() {
    IllegalStateException failure = new IllegalStateException("the model endpoint answered 500",
        new java.io.IOException("connection reset"));

    assertThat(TaskFailureMessage.describe(failure)).isEqualTo("the model endpoint answered 500");
    assertThat(TaskFailureMessage.describe(new ProcessEngineException("ENGINE-1: the task is gone"))).isEqualTo(
        "ENGINE-1: the task is gone");
  }
}
