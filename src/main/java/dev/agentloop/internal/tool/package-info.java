/**
 * Tools an agent can call (each an {@link dev.agentloop.spi.AgentTool} of the SPI): the registry of tool beans,
 * JSON-Schema checks of arguments, the runner with its timeout and bulkhead per tool, the built-in tools, and tool
 * sources whose tools come and go (MCP servers, package {@code mcp}).
 */
package dev.agentloop.internal.tool;
