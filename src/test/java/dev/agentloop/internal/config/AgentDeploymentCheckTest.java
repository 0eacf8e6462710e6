package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.io.InputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.camunda.bpm.engine.ParseException;
import org.camunda.bpm.engine.Problem;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.BaseElement;
import org.camunda.bpm.model.bpmn.instance.ExtensionElements;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaField;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperties;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaString;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A diagram that names an unknown tool, an unknown topic or an unusable setting is refused when it
 * is deployed, with a message naming the element and the property. Each test deploys the shipped
 * react-agent with one slip, as an analyst could make it in Modeler.
 */
@AgentLoopTest
class AgentDeploymentCheckTest {

  @Autowired ProcessEngine engine;
  @Autowired AgentDefinitions definitions;

  @Test
  void should_refuse_an_agent_that_allows_a_tool_nobody_registered() {
    assertRefused("slip-unknown-tool", property(ReactAgentProcess.THINK, AgentSettings.ALLOWED_TOOLS, "calculator, send_fax"),
        ReactAgentProcess.THINK, "agent property 'allowedTools' names the unknown tool 'send_fax'; registered tools: ");
  }

  @Test
  void should_accept_every_tool_of_the_registry_the_agents_call_tools_through() {
    // send_email and explode are test tools, registered like any tool bean: validation sees them too
    String key = deploy("slip-free-test-tools",
        property(ReactAgentProcess.THINK, AgentSettings.ALLOWED_TOOLS, "send_email, explode, read_document, *"));

    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count()).isOne();
  }

  @Test
  void should_refuse_an_agent_task_on_a_topic_agentloop_does_not_serve() {
    assertRefused("slip-unknown-topic", topic(ReactAgentProcess.ACT, "agentloop.acting"), ReactAgentProcess.ACT,
        "camunda:topic 'agentloop.acting' is not a topic AgentLoop serves; agent tasks use agentloop.act,"
            + " agentloop.plan, agentloop.think");
  }

  @Test
  void should_refuse_an_agent_that_waits_for_a_worker_of_a_foreign_topic() {
    assertRefused("slip-foreign-topic", topic(ReactAgentProcess.ACT, "crm.lookup"), ReactAgentProcess.ACT,
        "camunda:topic 'crm.lookup' is not a topic AgentLoop serves");
  }

  @Test
  void should_leave_processes_that_are_no_agents_alone() {
    BpmnModelInstance model = Bpmn.createExecutableProcess("not-an-agent").camundaHistoryTimeToLive(1)
        .startEvent().serviceTask("lookUp").camundaExternalTask("crm.lookup").endEvent().done();

    engine.getRepositoryService().createDeployment().addModelInstance("not-an-agent.bpmn", model).deploy();

    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("not-an-agent").count())
        .isOne();
  }

  @Test
  void should_refuse_a_max_steps_budget_that_is_negative_or_not_a_number() {
    assertRefused("slip-negative-budget", property(ReactAgentProcess.THINK, AgentSettings.MAX_STEPS, "-3"),
        ReactAgentProcess.THINK, "agent property 'maxSteps' is '-3' but must be a whole number of at least 1");
    assertRefused("slip-wordy-budget", property(ReactAgentProcess.THINK, AgentSettings.MAX_STEPS, "thirty"),
        ReactAgentProcess.THINK, "agent property 'maxSteps' is 'thirty' but must be a whole number of at least 1");
  }

  @Test
  void should_refuse_a_context_budget_that_is_negative_or_not_a_number() {
    String budget = AgentSettings.CONTEXT_BUDGET_TOKENS;
    assertRefused("slip-negative-context", property(ReactAgentProcess.THINK, budget, "-1"), ReactAgentProcess.THINK,
        "agent property 'contextBudgetTokens' is '-1' but must be a whole number of at least 0");
    assertRefused("slip-wordy-context", property(ReactAgentProcess.THINK, budget, "12k"), ReactAgentProcess.THINK,
        "agent property 'contextBudgetTokens' is '12k' but must be a whole number of at least 0");
  }

  @Test
  void should_refuse_an_answer_schema_that_is_no_valid_json_schema_naming_the_element() {
    // a type JSON Schema does not know
    assertRefused("slip-answer-schema-type", property(ReactAgentProcess.THINK, AgentSettings.ANSWER_SCHEMA,
        "{\"type\": \"object\", \"properties\": {\"priority\": {\"type\": \"strng\"}}}"), ReactAgentProcess.THINK,
        "agent property 'answerSchema' is '{\"type\": \"object\", \"properties\": {\"priority\": {\"type\": \"strng\"}}}'"
            + " but must be a JSON Schema of an object with properties (not a valid JSON Schema: /properties/priority/type:");
    // no JSON at all
    assertRefused("slip-answer-schema-json", property(ReactAgentProcess.THINK, AgentSettings.ANSWER_SCHEMA,
        "category, priority"), ReactAgentProcess.THINK, "agent property 'answerSchema' is 'category, priority' but must"
            + " be a JSON Schema of an object with properties (not JSON:");
    // a schema, but not of an object with fields
    assertRefused("slip-answer-schema-string", property(ReactAgentProcess.THINK, AgentSettings.ANSWER_SCHEMA,
        "{\"type\": \"string\"}"), ReactAgentProcess.THINK, "agent property 'answerSchema' is '{\"type\": \"string\"}'"
            + " but must be a JSON Schema of an object with properties (an answer schema has \"type\": \"object\" and"
            + " \"properties\"");
    // a reference that leads nowhere
    assertRefused("slip-answer-schema-ref", property(ReactAgentProcess.THINK, AgentSettings.ANSWER_SCHEMA,
        "{\"type\": \"object\", \"properties\": {\"a\": {\"$ref\": \"#/$defs/Missing\"}}}"), ReactAgentProcess.THINK,
        "agent property 'answerSchema'");
    // repairs that are no count
    assertRefused("slip-answer-repairs", property(ReactAgentProcess.THINK, AgentSettings.MAX_ANSWER_REPAIRS, "-1"),
        ReactAgentProcess.THINK, "agent property 'maxAnswerRepairs' is '-1' but must be a whole number of at least 0");
  }

  @Test
  void should_refuse_an_ask_human_timeout_that_is_no_iso_duration() {
    assertRefused("slip-duration", property(ReactAgentProcess.ASK_HUMAN, AgentSettings.ASK_HUMAN_TIMEOUT, "24 hours"),
        ReactAgentProcess.ASK_HUMAN, "agent property 'askHumanTimeout' is '24 hours' but must be a positive ISO-8601"
            + " duration such as PT30M");
  }

  @Test
  void should_refuse_an_unknown_decision_for_when_plan_revisions_run_out() {
    assertRefused("slip-decision", property(ReactAgentProcess.PLAN, AgentSettings.WHEN_PLAN_REVISIONS_RUN_OUT, "retry"),
        ReactAgentProcess.PLAN, "agent property 'whenPlanRevisionsRunOut' is 'retry' but must be accept or reject");
  }

  @Test
  void should_refuse_a_flag_that_is_neither_true_nor_false() {
    assertRefused("slip-flag", property(ReactAgentProcess.PLAN, AgentSettings.AUTO_ACCEPT_PLAN, "yes"),
        ReactAgentProcess.PLAN, "agent property 'autoAcceptPlan' is 'yes' but must be true or false");
  }

  @Test
  void should_refuse_a_setting_agentloop_does_not_know_instead_of_ignoring_it() {
    assertRefused("slip-misspelt", property(ReactAgentProcess.THINK, "maxStep", "5"), ReactAgentProcess.THINK,
        "agent property 'maxStep' is not an AgentLoop setting; use one of allowedTools, answerSchema, askHumanTimeout");
  }

  @Test
  void should_refuse_a_review_task_of_an_unknown_kind() {
    assertRefused("slip-review-kind", property(ReactAgentProcess.APPROVE_ACTION, ReviewKind.PROPERTY, "approve"),
        ReactAgentProcess.APPROVE_ACTION, "property 'agentloop.review': 'approve' is not a review kind; use one of plan,"
            + " askHuman, approveAction, answer");
  }

  @Test
  void should_name_every_slip_of_a_diagram_at_once() {
    ParseException refused = refused("slip-many",
        property(ReactAgentProcess.THINK, AgentSettings.MAX_STEPS, "0")
            .andThen(property(ReactAgentProcess.ASK_HUMAN, AgentSettings.ASK_HUMAN_TIMEOUT, "PT0S"))
            .andThen(topic(ReactAgentProcess.PLAN, "agentloop.planning")));

    assertThat(refused.getMessage())
        .contains("element 'plan': camunda:topic 'agentloop.planning'")
        .contains("element 'think': agent property 'maxSteps' is '0'")
        .contains("element 'askHuman': agent property 'askHumanTimeout' is 'PT0S'");
  }

  // ---- the tasks the settings send a run to -----------------------------------------------------

  @Test
  void should_refuse_an_agent_whose_tools_need_approval_when_it_has_no_approval_task() {
    // without the task, the gateway's default flow would run the calls unapproved
    assertRefused(minimalAgent("slip-no-approval", Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, send_email")),
        ReactAgentProcess.THINK, "agent property 'allowedTools' allows send_email, whose calls need a person's"
            + " approval, but the diagram has no approval task");
  }

  @Test
  void should_refuse_an_agent_whose_plans_wait_for_a_review_task_it_does_not_have() {
    assertRefused(minimalAgent("slip-no-plan-review", Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "false")),
        ReactAgentProcess.PLAN, "agent property 'autoAcceptPlan' is false, so plans wait for a review, but the"
            + " diagram has no plan review task");
  }

  @Test
  void should_refuse_an_agent_whose_answers_wait_for_a_review_task_by_the_applications_default() {
    Map<String, String> noAnswerFlag = new HashMap<>();
    noAnswerFlag.put(AgentSettings.AUTO_ACCEPT_ANSWER, null);

    assertRefused(minimalAgent("slip-no-answer-review", noAnswerFlag), ReactAgentProcess.THINK,
        "agent property 'autoAcceptAnswer' (by the application's default) is false, so answers wait for a review");
  }

  @Test
  void should_refuse_an_agent_that_may_call_a_remote_tool_without_a_remote_tool_task() {
    // crm_lookup is declared remote in the test profile: without the task its calls would never run
    assertRefused(minimalAgent("slip-no-remote-task", Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, crm_lookup")),
        ReactAgentProcess.THINK, "agent property 'allowedTools' allows crm_lookup, which remote workers run, but the"
            + " diagram has no remote tool task");
  }

  @Test
  void should_refuse_a_remote_tool_task_on_a_topic_of_one_tool() {
    assertRefused("slip-remote-topic", topic(ReactAgentProcess.CALL_REMOTE_TOOL, "agentloop.tool.crm_lookup"),
        ReactAgentProcess.CALL_REMOTE_TOOL, "camunda:topic 'agentloop.tool.crm_lookup' is not the remote tool topic:"
            + " remote tool tasks use agentloop.tool.${tool}");
  }

  @Test
  void should_refuse_an_agent_that_may_ask_a_person_without_an_ask_human_task() {
    assertRefused(minimalAgent("slip-no-ask-human", Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, ask_human")),
        ReactAgentProcess.THINK, "agent property 'allowedTools' allows ask_human, but the diagram has no ask-human task");
  }

  @Test
  void should_deploy_a_minimal_agent_whose_settings_need_no_person() {
    String key = deploy(minimalAgent("slip-free-minimal", Map.of()));

    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count()).isOne();
  }

  // ---- the escape route ----------------------------------------------------------------------------

  @Test
  void should_refuse_budgets_and_loop_limits_that_are_no_usable_numbers() {
    assertRefused("slip-token-budget", property(ReactAgentProcess.THINK, AgentSettings.MAX_TOKENS, "-1"),
        ReactAgentProcess.THINK, "agent property 'maxTokens' is '-1' but must be a whole number of at least 0 (0: no limit)");
    assertRefused("slip-run-time", property(ReactAgentProcess.THINK, AgentSettings.MAX_RUN_TIME, "2 days"),
        ReactAgentProcess.THINK, "agent property 'maxRunTime' is '2 days' but must be a positive ISO-8601 duration");
    assertRefused("slip-loop-limit", property(ReactAgentProcess.THINK, AgentSettings.LOOP_MAX_REPEATS, "0"),
        ReactAgentProcess.THINK, "agent property 'loopMaxRepeats' is '0' but must be a whole number of at least 1");
  }

  @Test
  void should_refuse_a_run_time_that_would_end_every_wait_for_a_persons_answer() {
    assertRefused("slip-short-run-time", property(ReactAgentProcess.THINK, AgentSettings.MAX_RUN_TIME, "PT1H"),
        ReactAgentProcess.THINK, "agent property 'maxRunTime' is PT1H, not longer than askHumanTimeout (PT24H): the"
            + " loop's timer would end every wait for a person's answer");
  }

  @Test
  void should_refuse_an_agent_whose_escape_route_misses_one_of_the_escapes() {
    // the boundary event of TOOL_UNAVAILABLE catches another error: a run escaping with it would end unseen
    assertRefused("slip-half-route", model -> model.<org.camunda.bpm.model.bpmn.instance.Error>getModelElementById(
            "toolUnavailableError").setErrorCode("TOOL_DOWN"),
        ReactAgentProcess.THINK, "its runs escape their loop with the BPMN errors LOOP_DETECTED, BUDGET_EXHAUSTED,"
            + " TOOL_UNAVAILABLE, but the diagram catches no TOOL_UNAVAILABLE");
  }

  @Test
  void should_accept_the_escape_settings_an_analyst_may_set() {
    String key = deploy("slip-free-escape-settings", property(ReactAgentProcess.THINK, AgentSettings.MAX_RUN_TIME, "P3D")
        .andThen(property(ReactAgentProcess.THINK, AgentSettings.MAX_TOKENS, "0"))
        .andThen(property(ReactAgentProcess.THINK, AgentSettings.LOOP_MAX_CYCLES, "3"))
        .andThen(property(ReactAgentProcess.THINK, AgentSettings.LOOP_MAX_SAME_FAILURES, "5")));

    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count()).isOne();
  }

  @Test
  void should_read_a_prompt_of_several_lines_from_the_field_modeler_edits_it_in() {
    String key = deploy("multi-line-prompt", field(ReactAgentProcess.THINK, AgentSettings.SYSTEM_PROMPT,
        "You answer in French.\nYou never guess a number: you compute it."));

    String definition = engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key)
        .singleResult().getId();
    assertThat(definitions.settings(definition).prompt().systemPrompt())
        .isEqualTo("You answer in French.\nYou never guess a number: you compute it.");
  }

  @Test
  void should_refuse_a_field_that_is_no_setting_as_it_refuses_such_a_property() {
    assertRefused("slip-field", field(ReactAgentProcess.THINK, "sytemPrompt", "a typo"), ReactAgentProcess.THINK,
        "agent property 'sytemPrompt' is not an AgentLoop setting");
  }

  // ---- helpers -----------------------------------------------------------------------------------

  private static final Map<String, String> MINIMAL_SETTINGS = Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true",
      AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.ALLOWED_TOOLS, "calculator");

  /**
   * plan, then think and act in a loop, and no person anywhere: the minimal settings with the given
   * ones over them (a {@code null} value leaves a setting out); plan gets autoAcceptPlan, think the others.
   */
  private static BpmnModelInstance minimalAgent(String key, Map<String, String> settings) {
    BpmnModelInstance model = Bpmn.createExecutableProcess(key).camundaHistoryTimeToLive(1)
        .startEvent()
        .serviceTask(ReactAgentProcess.PLAN).camundaExternalTask(ReactAgentProcess.TOPIC_PLAN)
        .exclusiveGateway("loop")
        .serviceTask(ReactAgentProcess.THINK).camundaExternalTask(ReactAgentProcess.TOPIC_THINK)
        .exclusiveGateway(ReactAgentProcess.NEXT_STEP)
        .condition("done", "${route == 'done'}").endEvent()
        .moveToNode(ReactAgentProcess.NEXT_STEP)
        .serviceTask(ReactAgentProcess.ACT).camundaExternalTask(ReactAgentProcess.TOPIC_ACT)
        .connectTo("loop")
        .done();
    Map<String, String> all = new HashMap<>(MINIMAL_SETTINGS);
    all.putAll(settings);
    all.forEach((name, value) -> {
      if (value != null) {
        String element = name.equals(AgentSettings.AUTO_ACCEPT_PLAN) ? ReactAgentProcess.PLAN : ReactAgentProcess.THINK;
        property(element, name, value).accept(model);
      }
    });
    return model;
  }

  private void assertRefused(BpmnModelInstance model, String elementId, String message) {
    String key = model.getModelElementsByType(Process.class).iterator().next().getId();
    assertRefused(key, m -> { }, model, elementId, message);
  }

  private void assertRefused(String key, Consumer<BpmnModelInstance> slip, String elementId, String message) {
    assertRefused(key, slip, reactAgent(key), elementId, message);
  }

  private void assertRefused(String key, Consumer<BpmnModelInstance> slip, BpmnModelInstance model, String elementId,
      String message) {
    slip.accept(model);
    Throwable thrown = catchThrowable(() -> deploy(model));
    assertThat(thrown).as("the deployment of " + key).isInstanceOf(ParseException.class);
    ParseException refused = (ParseException) thrown;

    assertThat(refused.getMessage()).contains("element '" + elementId + "': " + message);
    List<Problem> errors = refused.getResorceReports().get(0).getErrors();
    assertThat(errors).extracting(Problem::getMainElementId).containsExactly(elementId);
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count()).isZero();
  }

  private ParseException refused(String key, Consumer<BpmnModelInstance> slip) {
    BpmnModelInstance model = reactAgent(key);
    slip.accept(model);
    Throwable thrown = catchThrowable(() -> deploy(model));
    assertThat(thrown).as("the deployment of " + key).isInstanceOf(ParseException.class);
    return (ParseException) thrown;
  }

  private String deploy(String key, Consumer<BpmnModelInstance> change) {
    BpmnModelInstance model = reactAgent(key);
    change.accept(model);
    return deploy(model);
  }

  private String deploy(BpmnModelInstance model) {
    String key = model.getModelElementsByType(Process.class).iterator().next().getId();
    engine.getRepositoryService().createDeployment().name(key).addModelInstance(key + ".bpmn", model).deploy();
    return key;
  }

  /** Sets an extension property of an element, adding it when the element has none of that name. */
  private static Consumer<BpmnModelInstance> property(String elementId, String name, String value) {
    return model -> {
      BaseElement element = model.getModelElementById(elementId);
      if (element.getExtensionElements() == null) {
        element.setExtensionElements(model.newInstance(ExtensionElements.class));
      }
      ExtensionElements extensions = element.getExtensionElements();
      if (extensions.getElementsQuery().filterByType(CamundaProperties.class).count() == 0) {
        extensions.addChildElement(model.newInstance(CamundaProperties.class));
      }
      CamundaProperties properties = extensions.getElementsQuery().filterByType(CamundaProperties.class).singleResult();
      CamundaProperty property = properties.getCamundaProperties().stream()
          .filter(p -> p.getCamundaName().equals(name)).findFirst()
          .orElseGet(() -> {
            CamundaProperty added = model.newInstance(CamundaProperty.class);
            added.setCamundaName(name);
            properties.addChildElement(added);
            return added;
          });
      property.setCamundaValue(value);
    };
  }

  /** Sets a field ({@code camunda:field} with a {@code camunda:string}) of an element, as Modeler writes a multi-line text. */
  private static Consumer<BpmnModelInstance> field(String elementId, String name, String text) {
    return model -> {
      BaseElement element = model.getModelElementById(elementId);
      ExtensionElements extensions = element.getExtensionElements();
      CamundaField field = extensions.getChildElementsByType(CamundaField.class).stream()
          .filter(f -> f.getCamundaName().equals(name)).findFirst()
          .orElseGet(() -> {
            CamundaField added = model.newInstance(CamundaField.class);
            added.setCamundaName(name);
            added.setCamundaString(model.newInstance(CamundaString.class));
            extensions.addChildElement(added);
            return added;
          });
      field.getCamundaString().setTextContent(text);
    };
  }

  private static Consumer<BpmnModelInstance> topic(String elementId, String topic) {
    return model -> ((ServiceTask) model.getModelElementById(elementId)).setCamundaTopic(topic);
  }

  /** The shipped react-agent diagram under another key. */
  private static BpmnModelInstance reactAgent(String key) {
    try (InputStream in = AgentDeploymentCheckTest.class.getResourceAsStream("/processes/react-agent.bpmn")) {
      BpmnModelInstance model = Bpmn.readModelFromStream(in);
      model.getModelElementsByType(Process.class).iterator().next().setId(key);
      return model;
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
