/**
 * AgentLoop's agents as tools of an MCP server ({@code /mcp}, streamable HTTP, the official MCP Java SDK's server
 * side): each agent a caller may start is a tool; a call is a run, followed until it answers, with progress while it
 * waits for people. Only in a servlet web application. (AgentLoop as an MCP client is {@code tool.mcp}.)
 */
package dev.agentloop.internal.mcp;
