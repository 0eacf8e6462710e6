/**
 * Wiring: the typed {@code agentloop.*} properties with their defaults, the auto-configuration that
 * brings AgentLoop into any Camunda Spring Boot application, and the engine plugin.
 */
package dev.agentloop.config;
