/**
 * AgentLoop's API for the application that embeds it: what a host calls. {@link dev.agentloop.api.AgentRuns}
 * starts agent runs and reads how they stand ({@link dev.agentloop.api.RunView}, {@link dev.agentloop.api.RunStatus}
 * and the values a view holds), with the exceptions those calls throw. A host autowires {@code AgentRuns}; the
 * types here change only with the version's notes, every other package of AgentLoop is internal. What a host
 * implements (tools, a model) is {@link dev.agentloop.spi}. This package depends on no other of AgentLoop's.
 */
package dev.agentloop.api;
