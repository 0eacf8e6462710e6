/**
 * The demo app of the README's quick start: Camunda with its webapps and REST API, AgentLoop through its
 * auto-configuration, and what the demo adds of its own, as any application that embeds AgentLoop would:
 * its users and the tool {@code flaky}, bound from {@code demo.*}.
 */
package dev.agentloop.demo;
