/**
 * Wiring, on top of every other package and imported by none: the binding of the {@code agentloop.*}
 * properties (with their defaults) into the features' own settings records, the auto-configuration
 * that brings AgentLoop into any Camunda Spring Boot application, and the engine plugin.
 */
package dev.agentloop.config;
