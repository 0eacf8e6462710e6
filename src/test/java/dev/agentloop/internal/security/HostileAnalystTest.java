package dev.agentloop.internal.security;

import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.ModelerDeploy;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * An analyst tries, as an attacker would and through the very request Camunda Modeler sends
 * ({@code POST /engine-rest/deployment/create}, multipart, the analyst's own account), every construct that runs code,
 * reads a secret, makes someone else of them or changes what is not theirs: one diagram per construct, each a copy of
 * the shipped agent with that one thing added. Each is refused ({@code 403}) with its element and attribute named and
 * what an analyst may use instead, nothing of it is deployed, and the log holds no ERROR line. {@link
 * HostileAnalystKeysTest} tries what is not the analyst's: shipped keys and forms, another group's key, other people's
 * runs.
 * {@link DiagramSandboxTest} checks the positive list without an engine; {@code AnalystDeployTest} and
 * {@code AgentOwnershipTest} show what an analyst may do.
 */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
class HostileAnalystTest {

  private static final Pattern ERROR_LINE = Pattern.compile("\\bERROR\\b");
  private static final String LEAK = "${execution.setVariable('leak', environment.getProperty('agentloop.llm.api-key'))}";

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  private int logMark;

  @BeforeEach
  void markLog(CapturedOutput log) {
    logMark = log.length();
  }

  /** A refusal is expected: one INFO line at most, never an ERROR or a stack trace. */
  @AfterEach
  void noErrorLogged(CapturedOutput log) {
    String logged = log.toString().substring(logMark);
    assertThat(logged.lines().filter(line -> ERROR_LINE.matcher(line).find()).toList()).isEmpty();
    assertThat(logged).doesNotContain("ENGINE-16004").doesNotContain("\tat ");
  }

  @Test
  void should_refuse_a_listener_expression_that_reads_a_secret() {
    String leak = inPlan(copy("leak-agent"), "<bpmn:extensionElements><camunda:executionListener expression=\""
        + LEAK + "\" event=\"start\" /></bpmn:extensionElements>");

    assertRefused(deploy("analyst", "leak-agent.bpmn", leak), "leak-agent", "serviceTask 'plan':"
        + " camunda:executionListener runs code when the element starts or ends; AgentLoop's own listeners come"
        + " with its templates and need nothing in the diagram: remove it");
  }

  @Test
  void should_refuse_a_listener_that_makes_the_analyst_an_engine_administrator() {
    String admin = inPlan(copy("admin-agent"), "<bpmn:extensionElements><camunda:executionListener expression=\""
        + "${execution.getProcessEngineServices().getIdentityService().createMembership('analyst','camunda-admin')}\""
        + " event=\"end\" /></bpmn:extensionElements>");

    assertRefused(deploy("analyst", "admin-agent.bpmn", admin), "admin-agent", "serviceTask 'plan':"
        + " camunda:executionListener");
    assertThat(engine.getIdentityService().createUserQuery().userId("analyst").memberOfGroup("camunda-admin").count())
        .isZero();
  }

  @Test
  void should_refuse_a_task_listener_that_takes_other_peoples_reviews() {
    String takeover = copy("takeover-agent").replace("<camunda:property name=\"agentloop.review\" value=\"plan\" />",
        "<camunda:property name=\"agentloop.review\" value=\"plan\" /></camunda:properties><camunda:taskListener"
            + " event=\"create\" expression=\"${task.setAssignee('analyst')}\" /><camunda:properties>");

    assertRefused(deploy("analyst", "takeover-agent.bpmn", takeover), "takeover-agent", "userTask 'reviewPlan':"
        + " camunda:taskListener runs code on a task's events");
  }

  @Test
  void should_refuse_a_variable_named_after_a_bean_that_an_expression_reads_before_it_is_set() {
    // the input mapping is evaluated before the output mapping sets 'environment': it would read Spring's Environment
    String shadow = inPlan(copy("shadow-agent"), "<bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter"
        + " name=\"leak\">${environment.systemEnvironment['OPENAI_API_KEY']}</camunda:inputParameter>"
        + "<camunda:outputParameter name=\"environment\">${question}</camunda:outputParameter></camunda:inputOutput>"
        + "</bpmn:extensionElements>");

    assertRefused(deploy("analyst", "shadow-agent.bpmn", shadow), "shadow-agent", "serviceTask 'plan':",
        "reads 'environment', which the diagram sets but which is also a bean of the application");
  }

  @Test
  void should_refuse_a_juel_script_task() {
    assertRefused(deploy("analyst", "juel-agent.bpmn", withTask(copy("juel-agent"), "<bpmn:scriptTask id=\"compute\""
        + " scriptFormat=\"juel\"><bpmn:script>" + LEAK + "</bpmn:script></bpmn:scriptTask>")), "juel-agent",
        "scriptTask 'compute': is a scriptTask, which runs a script");
  }

  @Test
  void should_refuse_a_javascript_listener_script() {
    String javascript = inPlan(copy("javascript-agent"), "<bpmn:extensionElements><camunda:executionListener"
        + " event=\"start\"><camunda:script scriptFormat=\"javascript\">java.lang.System.exit(1)</camunda:script>"
        + "</camunda:executionListener></bpmn:extensionElements>");

    assertRefused(deploy("analyst", "javascript-agent.bpmn", javascript), "javascript-agent", "serviceTask 'plan':"
        + " camunda:executionListener");
  }

  @Test
  void should_refuse_a_groovy_script_in_an_input_mapping() {
    String groovy = inPlan(copy("groovy-agent"), "<bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter"
        + " name=\"key\"><camunda:script scriptFormat=\"groovy\">System.getenv('OPENAI_API_KEY')</camunda:script>"
        + "</camunda:inputParameter></camunda:inputOutput></bpmn:extensionElements>");

    assertRefused(deploy("analyst", "groovy-agent.bpmn", groovy), "groovy-agent", "serviceTask 'plan': camunda:script"
        + " runs a script; write the value as an expression on the run's variables, e.g. ${question}");
  }

  @Test
  void should_refuse_a_script_condition_and_a_method_call_in_a_condition_of_one_file_at_once() {
    String conditions = copy("condition-agent")
        .replace("<bpmn:conditionExpression xsi:type=\"bpmn:tFormalExpression\">${route == 'done'}",
            "<bpmn:conditionExpression xsi:type=\"bpmn:tFormalExpression\" language=\"groovy\">true")
        .replace("${route == 'askHuman'}", "${execution.getVariable('route') == 'askHuman'}");

    HttpResponse<String> refused = deploy("analyst", "condition-agent.bpmn", conditions);

    assertRefused(refused, "condition-agent", "2 problems",
        "sequenceFlow 'finalAnswer': attribute language makes it a script",
        "sequenceFlow 'questionForPerson': the conditionExpression: the expression ${execution.getVariable('route')"
            + " == 'askHuman'} calls the method getVariable(…)");
  }

  @Test
  void should_refuse_a_java_class() {
    assertRefused(deploy("analyst", "class-agent.bpmn", withTask(copy("class-agent"),
        "<bpmn:serviceTask id=\"steal\" camunda:class=\"com.example.Steal\" />")), "class-agent",
        "serviceTask 'steal': attribute camunda:class runs Java code of the application");
  }

  @Test
  void should_refuse_a_delegate_expression() {
    assertRefused(deploy("analyst", "bean-agent.bpmn", withTask(copy("bean-agent"),
        "<bpmn:serviceTask id=\"bean\" camunda:delegateExpression=\"${environment}\" />")), "bean-agent",
        "serviceTask 'bean': attribute camunda:delegateExpression runs a bean of the application");
  }

  @Test
  void should_refuse_a_connector() {
    assertRefused(deploy("analyst", "connector-agent.bpmn", withTask(copy("connector-agent"),
        "<bpmn:serviceTask id=\"post\"><bpmn:extensionElements><camunda:connector><camunda:connectorId>http-connector"
            + "</camunda:connectorId></camunda:connector></bpmn:extensionElements></bpmn:serviceTask>")),
        "connector-agent", "serviceTask 'post': camunda:connector calls another system from the engine; give the agent"
            + " a tool of the application that does it");
  }

  @Test
  void should_refuse_a_decision_and_its_dmn_file() {
    Map<String, String> files = new LinkedHashMap<>();
    files.put("dmn-agent.bpmn", withTask(copy("dmn-agent"),
        "<bpmn:businessRuleTask id=\"decide\" camunda:decisionRef=\"steal\" />"));
    files.put("steal.dmn", "<definitions xmlns=\"https://www.omg.org/spec/DMN/20191111/MODEL/\" id=\"d\" name=\"d\""
        + " namespace=\"x\"><decision id=\"steal\" name=\"steal\"><literalExpression><text>environment</text>"
        + "</literalExpression></decision></definitions>");

    assertRefused(ModelerDeploy.deploy(ApiClient.as(port, "analyst"), "dmn-agent", files), "dmn-agent",
        "steal.dmn: is no diagram: an analyst deploys the diagrams of agents (.bpmn) only",
        "businessRuleTask 'decide': is a businessRuleTask, which evaluates a decision (DMN)");
    assertThat(engine.getRepositoryService().createDecisionDefinitionQuery().decisionDefinitionKey("steal").count())
        .isZero();
  }

  private void assertRefused(HttpResponse<String> response, String key, String... named) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(403);
    assertThat(message(response)).contains(named).contains("Nothing was deployed");
    if (key != null) {
      assertThat(versions(key)).isZero();
    }
  }

  private static String message(HttpResponse<String> response) {
    try {
      JsonNode body = ApiClient.JSON.readTree(response.body());
      return body.path("message").asText(body.path("detail").asText());
    } catch (IOException e) {
      throw new AssertionError(response.body(), e);
    }
  }

  private long versions(String key) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).count();
  }

  private HttpResponse<String> deploy(String user, String file, String bpmn) {
    return ModelerDeploy.deploy(ApiClient.as(port, user), file, bpmn);
  }

  private static String copy(String key) {
    return ModelerDeploy.copyOfReactAgent(key, key);
  }

  /** The copy with XML added to its plan task, right after the task's documentation, as the schema orders it. */
  private static String inPlan(String copy, String xml) {
    int plan = copy.indexOf("<bpmn:serviceTask id=\"plan\"");
    int at = copy.indexOf("</bpmn:documentation>", plan) + "</bpmn:documentation>".length();
    return copy.substring(0, at) + xml + copy.substring(at);
  }

  /** The copy with one more element in its process. */
  private static String withTask(String copy, String xml) {
    int end = copy.indexOf("</bpmn:process>");
    return copy.substring(0, end) + xml + copy.substring(end);
  }
}
