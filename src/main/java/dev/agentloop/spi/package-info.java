/**
 * AgentLoop's service-provider interface: what a host implements. {@link dev.agentloop.spi.AgentTool} (a tool as a
 * Spring bean, failing with {@link dev.agentloop.spi.ToolException}) and {@link dev.agentloop.spi.ChatModel} (the
 * one port to a chat model, with {@link dev.agentloop.spi.ModelRequest}, {@link dev.agentloop.spi.ModelReply} and
 * their values). The built-in adapters and tools implement the same types. The types here change only with the
 * version's notes; this package depends on no other of AgentLoop's.
 */
package dev.agentloop.spi;
