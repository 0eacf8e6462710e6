package com.example.orders;

import static org.assertj.core.api.Assertions.assertThat;

import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/** A host with Camunda's authorization off: reviewers still get their Tasklist filter, and the log says the truth. */
@ExtendWith(OutputCaptureExtension.class)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "spring.datasource.url=jdbc:h2:mem:no-authorization-${random.uuid};DB_CLOSE_DELAY=-1",
    "camunda.bpm.authorization.enabled=false"})
class NoAuthorizationTest {

  @Autowired ProcessEngine engine;

  @Test
  void should_create_the_agent_reviews_filter_and_say_what_users_may_do(CapturedOutput startup) {
    assertThat(engine.getFilterService().createFilterQuery().filterName("Agent reviews").count()).isOne();
    assertThat(startup.getAll()).contains("Camunda authorization is disabled: every authenticated user may read and"
        + " start every run and complete its tasks; changing a run's course (edit, regenerate, stop) stays with"
        + " agent-operators");
  }
}
