/**
 * The tools every AgentLoop app has: calculator, current_time, http_get and read_document (and,
 * when configured, flaky, which fails at random for demos and chaos tests). Each is a plain
 * {@link dev.agentloop.tool.AgentTool}; an agent lists the ones it may use.
 */
package dev.agentloop.tool.builtin;
