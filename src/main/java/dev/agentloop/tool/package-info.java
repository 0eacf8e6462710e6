/**
 * Tools an agent can call: the {@link dev.agentloop.tool.AgentTool} SPI, the registry of tool beans,
 * JSON-Schema checks of arguments, the runner with its timeout, and the built-in tools.
 */
package dev.agentloop.tool;
