package dev.agentloop.security;

/**
 * The demo setup of the stand-alone app ({@code agentloop.demo.*}, bound by package {@code config}):
 * users {@code reviewer}, {@code operator} and {@code worker} (password = user id) in the AgentLoop
 * groups, and the Camunda admin user in reviewers and operators. Off by default, so an application
 * that embeds AgentLoop never gets known passwords.
 *
 * @param enabled whether the demo users are created (never in production: their passwords are known)
 */
public record DemoSettings(boolean enabled) {}
