package dev.agentloop.internal.telemetry;

import org.camunda.bpm.engine.impl.persistence.entity.ProcessDefinitionEntity;

/**
 * What an {@code invoke_agent} span says of the agent: its id (the process definition's id: one per deployed
 * version), its version (the definition's version, with its version tag where the diagram has one) and its
 * description (the diagram's documentation, as the agent's tool description says it).
 */
record AgentAttributes(String id, String version, String description) {

  static AgentAttributes of(ProcessDefinitionEntity definition) {
    String tag = definition.getVersionTag();
    String version = tag == null || tag.isBlank() ? String.valueOf(definition.getVersion())
        : definition.getVersion() + " (" + tag + ")";
    Object documentation = definition.getProperty("documentation");
    String description = documentation instanceof String text && !text.isBlank() ? text.strip()
        : definition.getDescription();
    return new AgentAttributes(definition.getId(), version, description);
  }

  TraceSpan tag(TraceSpan span) {
    span.tag(GenAi.AGENT_ID, id).tag(GenAi.AGENT_VERSION, version);
    if (description != null && !description.isBlank()) {
      span.tag(GenAi.AGENT_DESCRIPTION, description);
    }
    return span;
  }
}
