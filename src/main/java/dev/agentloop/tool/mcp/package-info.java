/**
 * Tools from MCP servers: each server declared in {@code agentloop.tools.mcp.<server>} (stdio or
 * streamable HTTP / SSE) is connected once per node and supervised, and each of its tools is an
 * {@link dev.agentloop.tool.AgentTool} named {@code <server>__<tool>}.
 */
package dev.agentloop.tool.mcp;
