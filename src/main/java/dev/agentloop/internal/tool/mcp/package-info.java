/**
 * Tools from MCP servers: each server declared in {@code agentloop.tools.mcp.<server>} (stdio or
 * streamable HTTP / SSE) is connected once per node, in the background and in parallel so that no
 * server holds up the start, and supervised; each of its tools is an
 * {@link dev.agentloop.spi.AgentTool} named {@code <server>__<tool>}, with the server's whole input
 * schema. A server that is down stays visible: its tools fail with why, its state is reported, and
 * its log says the cause once, then at a bounded rate. Calls wait for the server's own
 * {@code timeout} and are cancelled on the server ({@code notifications/cancelled}) when it passes.
 */
package dev.agentloop.internal.tool.mcp;
