package dev.agentloop.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.api.AgentLoopGroups;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.runtime.ProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.camunda.bpm.engine.variable.Variables;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ActiveProfiles;

/**
 * The demo's business process support-ticket, as it runs from a clean checkout with the scripted model: it asks the
 * triage agent, whose answer comes in the fields of its answer schema, and its gateways route on them — the ticket
 * the script triages as a normal defect goes to the repairs desk, and where the reviewer changes the fields in the
 * answer review, the process follows the changed ones.
 */
@SpringBootTest(classes = DemoApplication.class, properties = {
    // the demo's own script: the test class path has the library's test host configuration too
    "agentloop.llm.scripted.script=classpath:scripts/demo-script.json",
    "camunda.bpm.process-engine-name=supportTicketDemo"})
@ActiveProfiles("test")
class SupportTicketDemoTest {

  private static final String TICKET = "My kettle stopped working 40 days after delivery. Can I get my money back?";
  private static final Duration PATIENCE = Duration.ofSeconds(60);

  @Autowired ProcessEngine engine;

  @Test
  void should_route_the_ticket_to_the_desk_of_the_category_the_agent_answered() {
    // given a ticket a reviewer started (the demo lets reviewers start it), triaged by the agent, whose question a
    // colleague answers
    engine.getIdentityService().setAuthentication("reviewer", List.of(AgentLoopGroups.REVIEWERS));
    ProcessInstance ticket;
    try {
      ticket = engine.getRuntimeService().startProcessInstanceByKey("support-ticket", Map.of("question", TICKET));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
    String triage = triageRun(ticket);
    complete(task(triage, "askHuman"), Map.of("answer1", "KC-20417"));

    // when the reviewer accepts the answer as the agent gave it (category defect, priority normal)
    Task review = task(triage, "reviewAnswer");
    assertThat(engine.getTaskService().getVariablesLocal(review.getId())).containsEntry("answerChoice1", "defect")
        .containsEntry("answerChoice2", "normal");
    complete(review, Map.of("decision", "accept"));

    // then the process has the fields and waits at the repairs desk, without a call back
    Task desk = task(ticket.getId(), "repairsDesk");
    assertThat(engine.getRuntimeService().getVariable(ticket.getId(), "answer_category")).isEqualTo("defect");
    assertThat(engine.getRuntimeService().getVariable(ticket.getId(), "answer_priority")).isEqualTo("normal");
    assertThat((String) engine.getRuntimeService().getVariable(ticket.getId(), "answer_reply"))
        .startsWith("Dear customer, we are sorry your kettle stopped working.");
    assertThat(engine.getRuntimeService().getVariable(ticket.getId(), "agentOutcome")).isEqualTo("ANSWERED");
    assertThat(desk.getName()).isEqualTo("Repairs desk: handle the ticket");
  }

  @Test
  void should_follow_the_fields_a_reviewer_changed() {
    // given
    ProcessInstance ticket = engine.getRuntimeService().startProcessInstanceByKey("support-ticket",
        Map.of("question", TICKET));
    String triage = triageRun(ticket);
    complete(task(triage, "askHuman"), Map.of("answer1", "KC-20417"));

    // when the reviewer makes it an urgent refund
    complete(task(triage, "reviewAnswer"), Map.of("decision", "accept", "answerChoice1", "refund",
        "answerChoice2", "urgent"));

    // then the ticket goes to a call back first, then to the refunds desk
    complete(task(ticket.getId(), "callBack"), Map.of());
    task(ticket.getId(), "refundsDesk");
    assertThat(engine.getRuntimeService().getVariable(ticket.getId(), "answer_category")).isEqualTo("refund");
  }

  private String triageRun(ProcessInstance ticket) {
    return await().atMost(PATIENCE).until(() -> engine.getRuntimeService().createProcessInstanceQuery()
        .superProcessInstanceId(ticket.getId()).singleResult(), run -> run != null).getId();
  }

  private Task task(String instance, String key) {
    return await().atMost(PATIENCE).until(() -> engine.getTaskService().createTaskQuery().processInstanceId(instance)
        .taskDefinitionKey(key).singleResult(), task -> task != null);
  }

  /** As a reviewer in Tasklist: the fields go to the task's own variables. */
  private void complete(Task task, Map<String, Object> fields) {
    engine.getIdentityService().setAuthentication("reviewer", List.of(AgentLoopGroups.REVIEWERS));
    try {
      engine.getFormService().submitTaskForm(task.getId(), Variables.fromMap(fields));
    } finally {
      engine.getIdentityService().clearAuthentication();
    }
  }
}
