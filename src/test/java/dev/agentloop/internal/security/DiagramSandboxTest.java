package dev.agentloop.internal.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.definition.AgentSettings;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.junit.jupiter.api.Test;

/**
 * The positive list of an analyst's diagram, read without an engine: the shipped agents pass it whole, and each
 * construct that runs code, reads an engine object or leaves AgentLoop's forms is named with its element, the
 * attribute or part, and what to use instead. {@code HostileAnalystTest} deploys the same through the engine REST API.
 */
class DiagramSandboxTest {

  private static final Set<String> FORMS = Set.of("react-agent-start", "react-agent-review-plan",
      "react-agent-review-answer", "react-agent-approve-action", "react-agent-ask-human", "react-agent-agent-stuck");
  private final DiagramSandbox sandbox = new DiagramSandbox(FORMS, name -> name.equals("environment"));

  @Test
  void should_pass_the_shipped_agents_whole() throws IOException {
    assertThat(problems("react-agent.bpmn", Files.readString(Path.of("processes/react-agent.bpmn")))).isEmpty();
    assertThat(problems("support-triage-agent.bpmn",
        Files.readString(Path.of("processes/support-triage-agent.bpmn")))).isEmpty();
  }

  @Test
  void should_pass_a_copy_written_by_camundas_model_api_with_its_defaults() {
    String written = Bpmn.convertToString(TestAgent.variant("written-copy", Map.of(AgentSettings.MAX_STEPS, "12")));

    assertThat(messages(written)).isEmpty();
  }

  @Test
  void should_name_a_listener_expression_that_reads_a_secret_with_its_element_and_what_to_do() throws IOException {
    String leak = reactAgent().replace("<bpmn:serviceTask id=\"plan\" ", "<bpmn:serviceTask id=\"plan\" ")
        .replace("<bpmn:documentation>The model writes a short plan", "<bpmn:extensionElements><camunda:executionListener"
            + " expression=\"${execution.setVariable('leak', environment.getProperty('agentloop.llm.api-key'))}\""
            + " event=\"start\" /></bpmn:extensionElements><bpmn:documentation>The model writes a short plan");

    assertThat(messages(leak)).singleElement().asString().startsWith("leak.bpmn: serviceTask 'plan':"
        + " camunda:executionListener runs code when the element starts or ends; AgentLoop's own listeners");
  }

  @Test
  void should_refuse_each_expression_that_leaves_the_runs_variables() {
    SafeExpressions expressions = new SafeExpressions(Set.of("mine"), name -> false);

    assertThat(expressions.problem("${route == 'done' && mine != null || empty decision}")).isEmpty();
    assertThat(expressions.problem("agentloop.tool.${tool}")).isEmpty();
    assertThat(expressions.problem("${question['text'].length > 3 ? -1 : 2 * 3}")).isEmpty();
    assertThat(expressions.problem("${execution.getVariable('x')}")).get().asString()
        .isEqualTo("calls the method getVariable(…)");
    assertThat(expressions.problem("${execution.processBusinessKey}")).get().asString()
        .startsWith("reads 'execution', which is no variable of an agent run (it would reach the engine's own object)");
    assertThat(expressions.problem("${environment}")).get().asString().startsWith("reads 'environment'");
    assertThat(expressions.problem("${question.class}")).get().asString().contains("'class'");
    assertThat(expressions.problem("${question['class']}")).get().asString().contains("'class'");
    assertThat(expressions.problem("${question[decision]}")).get().asString().contains("computed");
    assertThat(expressions.problem("${now()}")).get().asString().isEqualTo("calls the function now(…)");
    assertThat(expressions.problem("${unclosed")).get().asString().startsWith("is no expression the engine can read");
  }

  @Test
  void should_refuse_reading_a_variable_the_diagram_names_after_a_bean_or_an_object_of_the_engine() {
    // where the diagram's variable is not set yet, the engine resolves the name to the bean or the engine's object
    SafeExpressions expressions = new SafeExpressions(Set.of("environment", "execution", "mine", "question"),
        name -> name.equals("environment") || name.equals("question"));

    assertThat(expressions.problem("${environment.systemEnvironment['OPENAI_API_KEY']}")).get().asString()
        .isEqualTo("reads 'environment', which the diagram sets but which is also a bean of the application: wherever"
            + " the variable is not set, the expression reads that instead; give the variable another name");
    assertThat(expressions.problem("${execution.processBusinessKey}")).get().asString()
        .contains("which the diagram sets but which is also the engine's own object");
    assertThat(expressions.problem("${mine}")).isEmpty();
    assertThat(expressions.problem("${question}")).as("AgentLoop sets its own variables from the start").isEmpty();
  }

  @Test
  void should_name_every_problem_of_a_file_at_once() {
    String bad = """
        <bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
            xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="x">
          <bpmn:process id="bad" isExecutable="true">
            <bpmn:scriptTask id="run" scriptFormat="groovy"><bpmn:script>println 1</bpmn:script></bpmn:scriptTask>
            <bpmn:serviceTask id="code" camunda:class="com.example.Steal"/>
            <bpmn:userTask id="mine" camunda:formKey="embedded:app:x.html" camunda:assignee="${task.id}"/>
            <bpmn:callActivity id="payroll" calledElement="payroll"/>
            <bpmn:sequenceFlow id="f" sourceRef="a" targetRef="b">
              <bpmn:conditionExpression language="javascript">true</bpmn:conditionExpression>
            </bpmn:sequenceFlow>
          </bpmn:process>
        </bpmn:definitions>
        """;

    List<String> messages = messages(bad);
    assertThat(messages).hasSize(8);
    assertThat(messages.subList(0, 2)).containsExactly(
        "leak.bpmn: scriptTask 'run': is a scriptTask, which runs a script; what a script would compute, a tool of"
            + " the application computes: allow it on think",
        "leak.bpmn: serviceTask 'code': attribute camunda:class runs Java code of the application; an analyst's"
            + " service task is one of AgentLoop's: camunda:type=\"external\" on an agentloop.* topic (templates"
            + " Agent: plan, think, act, call a remote tool); what code would do, a tool of the application does,"
            + " allowed on think");
    assertThat(String.join("\n", messages)).contains(
        "userTask 'mine': attribute camunda:formKey names a form that may hold scripts",
        "userTask 'mine': attribute camunda:assignee: the expression ${task.id} reads 'task'",
        "userTask 'mine': a user task without the property agentloop.review is no review",
        "callActivity 'payroll': attribute calledElement is 'payroll'",
        "callActivity 'payroll': a call activity without the property agentloop.callAgent=true would start a process"
            + " that is no agent",
        "sequenceFlow 'f': attribute language makes it a script");
  }

  @Test
  void should_refuse_a_file_it_cannot_read_rather_than_leave_it_to_another_parser() {
    String withDtd = "<?xml version=\"1.0\"?><!DOCTYPE d [<!ENTITY x \"y\">]>" + reactAgent().substring(
        reactAgent().indexOf("<bpmn:definitions"));

    assertThat(messages(withDtd)).singleElement().asString().contains("is no XML AgentLoop can read");
  }

  private List<SandboxProblem> problems(String file, String xml) {
    return sandbox.check(file, xml.getBytes(StandardCharsets.UTF_8));
  }

  private List<String> messages(String xml) {
    return problems("leak.bpmn", xml).stream().map(SandboxProblem::message).toList();
  }

  private static String reactAgent() {
    try {
      return Files.readString(Path.of("processes/react-agent.bpmn"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
