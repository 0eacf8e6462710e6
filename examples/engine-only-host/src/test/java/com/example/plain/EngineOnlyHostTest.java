package com.example.plain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.api.AgentLoopGroups;
import dev.agentloop.api.AgentRuns;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;

/**
 * AgentLoop in an application with the engine only: no webapps, no engine REST API, no web starter and
 * {@code spring.main.web-application-type=none}. Adding AgentLoop brings no web server (neither Tomcat nor Spring
 * MVC comes with it) and serves nothing; its agents run and their reviews are Camunda user tasks.
 */
@SpringBootTest
@ExtendWith(OutputCaptureExtension.class)
class EngineOnlyHostTest {

  @Autowired ProcessEngine engine;
  @Autowired ApplicationContext context;
  @Autowired AgentRuns runs;

  @Test
  void should_stay_without_a_web_server_and_say_what_agentloop_leaves_out(CapturedOutput startup) {
    assertThat(context).isNotInstanceOf(WebServerApplicationContext.class);
    for (String webClass : List.of("org.apache.catalina.startup.Tomcat", "jakarta.servlet.Servlet",
        "org.springframework.web.servlet.DispatcherServlet")) {
      assertThat(ClassUtils.isPresent(webClass, getClass().getClassLoader())).as(webClass).isFalse();
    }
    // neither the REST API's controllers nor its authentication filter, nor the MCP server or the A2A agents
    assertThat(context.containsBean("runController")).isFalse();
    assertThat(context.containsBean("agentLoopMcpServer")).isFalse();
    assertThat(context.containsBean("a2aController")).isFalse();
    assertThat(context.containsBean("apiAuthentication")).isFalse();
    assertThat(startup.getAll()).contains("no servlet web application: AgentLoop serves no REST API, no MCP server,"
            + " no A2A agents and no Cockpit tabs here")
        .contains("no Camunda webapps in this application")
        .contains("no Camunda engine REST API in this application");
  }

  @Test
  void should_run_an_agent_whose_answer_review_is_a_camunda_user_task() {
    assertThat(runs.deployedAgents()).contains("react-agent");

    String run = runs.start("react-agent", "What model answers here?");
    decide(awaitTask(run, "reviewPlan"), "accept");
    decide(awaitTask(run, "reviewAnswer"), "accept");

    await().atMost(Duration.ofSeconds(60)).until(() -> runs.view(run).endedAt() != null);
    assertThat(runs.view(run).finalAnswer()).isEqualTo("This example has no model configured yet.");
  }

  /** As a reviewer, through Camunda's Java API: the review's form fields go to the task. */
  private void decide(Task task, String decision) {
    engine.getIdentityService().setAuthentication("admin", List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(task.getId(), Map.of("decision", decision));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }

  private Task awaitTask(String run, String taskKey) {
    return await().atMost(Duration.ofSeconds(60)).until(() -> engine.getTaskService().createTaskQuery()
        .processInstanceId(run).taskDefinitionKey(taskKey).singleResult(), task -> task != null);
  }
}
