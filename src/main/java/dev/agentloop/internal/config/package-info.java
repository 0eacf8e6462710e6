/**
 * Wiring, on top of every other package and imported by none: the binding of the {@code agentloop.*}
 * properties (with their defaults) into the features' own settings records, the refusal of unknown
 * {@code agentloop.*} keys, the auto-configuration that brings AgentLoop into any Camunda Spring Boot
 * application, the engine plugin, and what AgentLoop deploys itself.
 */
package dev.agentloop.internal.config;
