/**
 * What an agent is: the settings an analyst gives it in Modeler, read from its BPMN diagram with the
 * application's defaults ({@link dev.agentloop.internal.agent.definition.AgentSettings},
 * {@link dev.agentloop.internal.agent.definition.AgentDefinitions}), the other agents it may call, offered to its model as
 * tools ({@link dev.agentloop.internal.agent.definition.AgentsAsTools}), and the rules and warnings a diagram is checked
 * against when it is deployed ({@link dev.agentloop.internal.agent.definition.AgentDiagramRules}). It uses nothing of the loop, the
 * runs or the child runs: those are built on it.
 */
package dev.agentloop.internal.agent.definition;
