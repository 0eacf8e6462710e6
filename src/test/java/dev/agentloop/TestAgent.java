package dev.agentloop;

import dev.agentloop.agent.AgentSettings;
import java.io.InputStream;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.instance.Process;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.test.context.TestConfiguration;

/**
 * Deploys {@code test-agent}: the shipped react-agent diagram with every tool allowed (the test
 * tools included), so tests exercise the real diagram and not a copy that could drift from it.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestAgent implements ApplicationRunner {

  public static final String KEY = "test-agent";

  private final ProcessEngine engine;

  TestAgent(ProcessEngine engine) {
    this.engine = engine;
  }

  @Override
  public void run(ApplicationArguments args) {
    BpmnModelInstance model = reactAgent();
    model.getModelElementsByType(Process.class).iterator().next().setId(KEY);
    model.getModelElementsByType(CamundaProperty.class).stream()
        .filter(p -> AgentSettings.ALLOWED_TOOLS.equals(p.getCamundaName()))
        .forEach(p -> p.setCamundaValue("*"));
    engine.getRepositoryService().createDeployment().name(KEY).addModelInstance(KEY + ".bpmn", model).deploy();
  }

  private static BpmnModelInstance reactAgent() {
    try (InputStream in = TestAgent.class.getResourceAsStream("/processes/react-agent.bpmn")) {
      return Bpmn.readModelFromStream(in);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
