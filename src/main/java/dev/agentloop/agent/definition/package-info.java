/**
 * What an agent is: the settings an analyst gives it in Modeler, read from its BPMN diagram with the
 * application's defaults ({@link dev.agentloop.agent.definition.AgentSettings},
 * {@link dev.agentloop.agent.definition.AgentDefinitions}), and the rules and warnings a diagram is checked
 * against when it is deployed ({@link dev.agentloop.agent.definition.AgentDiagramRules}).
 */
package dev.agentloop.agent.definition;
