/**
 * Wiring: the typed {@code agentloop.*} properties with their defaults, the auto-configuration that
 * brings AgentLoop into any Camunda Spring Boot application, the engine plugin, and the thread factory
 * every AgentLoop pool uses (the application's class loader on every thread).
 */
package dev.agentloop.config;
