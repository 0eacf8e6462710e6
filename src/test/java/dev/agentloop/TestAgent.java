package dev.agentloop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import java.io.InputStream;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperties;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.test.context.TestConfiguration;

/**
 * Deploys variants of the shipped react-agent diagram, so tests exercise the real diagram and not a
 * copy that could drift from it: {@code test-agent} with every tool allowed (the test tools
 * included) and plan and answer accepted automatically, {@code review-agent} like it but with
 * both reviews, and {@code answer-review-agent} that plans unattended and waits with its answer.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestAgent implements ApplicationRunner {

  public static final String KEY = "test-agent";
  public static final String REVIEWED = "review-agent";
  public static final String ANSWER_REVIEWED = "answer-review-agent";

  private final ProcessEngine engine;

  TestAgent(ProcessEngine engine) {
    this.engine = engine;
  }

  @Override
  public void run(ApplicationArguments args) {
    deployVariant(engine, KEY, Map.of(AgentSettings.ALLOWED_TOOLS, "*",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    deployVariant(engine, REVIEWED, Map.of(AgentSettings.ALLOWED_TOOLS, "*"));
    deployVariant(engine, ANSWER_REVIEWED, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN, "true"));
  }

  /**
   * Deploys the two conversation agents the conversation tests use: {@code chat} accepts its plans and answers
   * itself and waits an hour for a follow-up; {@code reviewedChat} accepts its plans and has its answers reviewed.
   */
  public static void deployConversationAgents(ProcessEngine engine, String chat, String reviewedChat) {
    deployVariant(engine, chat, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true",
        AgentSettings.CONVERSATION_IDLE, "PT1H"));
    deployVariant(engine, reviewedChat, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.CONVERSATION, "true"));
  }

  /** Deploys react-agent under another key with some of its extension properties changed. */
  public static void deployVariant(ProcessEngine engine, String key, Map<String, String> properties) {
    engine.getRepositoryService().createDeployment().name(key)
        .addModelInstance(key + ".bpmn", variant(key, properties)).deploy();
  }

  /**
   * The react-agent diagram under another key with some of its extension properties changed; those
   * it does not set are added to {@code think}, where the agent's settings are read from all the same.
   */
  public static BpmnModelInstance variant(String key, Map<String, String> properties) {
    BpmnModelInstance model = reactAgent();
    model.getModelElementsByType(Process.class).iterator().next().setId(key);
    Set<String> set = new HashSet<>();
    model.getModelElementsByType(CamundaProperty.class).stream()
        .filter(p -> properties.containsKey(p.getCamundaName()))
        .forEach(p -> {
          p.setCamundaValue(properties.get(p.getCamundaName()));
          set.add(p.getCamundaName());
        });
    CamundaProperties think = model.<ServiceTask>getModelElementById(ReactAgentProcess.THINK).getExtensionElements()
        .getElementsQuery().filterByType(CamundaProperties.class).singleResult();
    properties.forEach((name, value) -> {
      if (!set.contains(name)) {
        CamundaProperty added = model.newInstance(CamundaProperty.class);
        added.setCamundaName(name);
        added.setCamundaValue(value);
        think.addChildElement(added);
      }
    });
    return model;
  }

  private static BpmnModelInstance reactAgent() {
    try (InputStream in = TestAgent.class.getResourceAsStream("/processes/react-agent.bpmn")) {
      return Bpmn.readModelFromStream(in);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
