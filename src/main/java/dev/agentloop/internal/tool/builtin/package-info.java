/**
 * The tools every AgentLoop app has: calculator, current_time, http_get, read_document and ask_human.
 * Each is a plain {@link dev.agentloop.spi.AgentTool}; an agent lists the ones it may use.
 */
package dev.agentloop.internal.tool.builtin;
