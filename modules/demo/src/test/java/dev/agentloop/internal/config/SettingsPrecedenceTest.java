package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.demo.DemoApplication;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * Which value of an agent setting wins: the diagram's, else the application's property, else the
 * built-in default. The shipped agent sets only what is particular to it, so the two settings of the
 * README's configuration table (here as the properties that AGENTLOOP_AGENT_AUTO_ACCEPT_PLAN and
 * ..._ANSWER bind to) take the README's question to its answer with nobody reviewing.
 */
@SpringBootTest(classes = DemoApplication.class, properties = {
    "agentloop.agent.auto-accept-plan=true", "agentloop.agent.auto-accept-answer=true",
    "agentloop.llm.scripted.script=classpath:scripts/demo-script.json",
    "camunda.bpm.process-engine-name=settingsPrecedence"})
@ActiveProfiles("test")
class SettingsPrecedenceTest {

  @Autowired RunService runs;
  @Autowired ProcessEngine engine;

  @Test
  void should_take_the_readme_question_to_its_answer_with_no_person_when_the_application_accepts_automatically() {
    // when
    String run = runs.start(ReactAgentProcess.KEY, "What is 17 * 23 plus the number of days in a leap year?");

    // then
    assertThat(Runs.awaitStatus(runs, run, RunStatus.ANSWERED).finalAnswer()).as(() -> runs.trace(run, true).toString())
        .contains("757");
    assertThat(engine.getHistoryService().createHistoricTaskInstanceQuery().processInstanceId(run).count()).isZero();
  }

  @Test
  void should_let_the_diagram_win_over_the_application() {
    // given an agent whose diagram says that plans are reviewed
    TestAgent.deployVariant(engine, "reviewed-by-diagram", Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "false"));

    // when
    String run = runs.start("reviewed-by-diagram", "What is 17 * 23 plus the number of days in a leap year?");

    // then
    Runs.awaitView(runs, run, view -> view.waitingFor().contains(ReactAgentProcess.REVIEW_PLAN));
  }
}
