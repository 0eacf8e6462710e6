package dev.agentloop.internal.web.a2a;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.tool.a2a.A2aProtocol;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.repository.ProcessDefinition;
import org.camunda.bpm.model.bpmn.instance.Documentation;
import org.camunda.bpm.model.bpmn.instance.Process;

/**
 * An agent's card, from its diagram's latest version: its name and documentation, its version, the JSON-RPC
 * interface of A2A 1.0 at {@code <path>/<key>}, HTTP Basic as its security scheme (as for the REST API), streaming,
 * no push notifications, text in and out, and one skill, the agent itself: the diagram's name and documentation,
 * tagged with what its runs may involve (people reviewing, a conversation). Thread-safe.
 */
final class AgentCards {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final ProcessEngine engine;
  private final AgentDefinitions definitions;

  AgentCards(ProcessEngine engine, AgentDefinitions definitions) {
    this.engine = engine;
    this.definitions = definitions;
  }

  /** The card of the agent, served at {@code endpoint}; empty when no agent has that key. */
  Optional<ObjectNode> card(String key, String endpoint) {
    // the diagram is read whatever the caller's rights: the caller's right to start the agent is checked before
    return ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired()
        .execute(context -> context.runWithoutAuthorization(() -> latest(key).map(latest -> card(latest, endpoint))));
  }

  /** Whether an agent of that key is deployed. */
  boolean exists(String key) {
    return ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration()).getCommandExecutorTxRequired()
        .execute(context -> context.runWithoutAuthorization(() -> latest(key).isPresent()));
  }

  private ObjectNode card(ProcessDefinition definition, String endpoint) {
    String name = definition.getName() == null || definition.getName().isBlank() ? definition.getKey()
        : definition.getName();
    String description = documentation(definition).orElse("AgentLoop agent " + name + ": asks a model step by step,"
        + " with the tools and the reviews its diagram gives it.");
    ObjectNode card = JSON.createObjectNode().put("name", name).put("description", description);
    card.putArray("supportedInterfaces").addObject().put("url", endpoint)
        .put("protocolBinding", A2aProtocol.JSONRPC).put("protocolVersion", A2aProtocol.VERSION);
    card.putObject("provider").put("organization", "AgentLoop").put("url", endpoint);
    card.put("version", String.valueOf(definition.getVersion()));
    card.putObject("capabilities").put("streaming", true).put("pushNotifications", false)
        .put("extendedAgentCard", false);
    card.putObject("securitySchemes").putObject("basic").putObject("httpAuthSecurityScheme").put("scheme", "Basic")
        .put("description", "a Camunda user of the application, or one of its own users, as for AgentLoop's REST API");
    card.putArray("securityRequirements").addObject().putObject("schemes").putObject("basic").putArray("list");
    card.putArray("defaultInputModes").add("text/plain");
    card.putArray("defaultOutputModes").add("text/plain");
    ObjectNode skill = card.putArray("skills").addObject().put("id", definition.getKey()).put("name", name)
        .put("description", description);
    ArrayNode tags = skill.putArray("tags").add("agentloop");
    var settings = definitions.settings(definition.getId());
    if (settings.answer().hasSchema()) {
      // its answer's fields come as a data part beside the text
      skill.putArray("outputModes").add("text/plain").add("application/json");
      tags.add("answer-fields");
    }
    if (!settings.review().autoAcceptPlan() || !settings.review().autoAcceptAnswer()) {
      tags.add("human-review");
    }
    if (settings.conversation().enabled()) {
      tags.add("conversation");
    }
    return card;
  }

  private Optional<String> documentation(ProcessDefinition definition) {
    return engine.getRepositoryService().getBpmnModelInstance(definition.getId())
        .getModelElementsByType(Process.class).stream()
        .filter(process -> process.getId().equals(definition.getKey()))
        .flatMap(process -> process.getDocumentations().stream())
        .map(Documentation::getTextContent).filter(text -> text != null && !text.isBlank())
        .map(String::strip).findFirst();
  }

  private Optional<ProcessDefinition> latest(String key) {
    return engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey(key).latestVersion()
        .list().stream().filter(definition -> definitions.isAgent(definition.getId())).findFirst();
  }
}
