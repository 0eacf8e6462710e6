package dev.agentloop.demo;

/**
 * The demo users ({@code demo.users.*}): {@code reviewer}, {@code operator} and {@code worker}
 * (password = user id) in the AgentLoop groups, and the Camunda admin user in reviewers and operators.
 * On in the demo's application.yaml; {@code DEMO_USERS_ENABLED=false} leaves them out.
 *
 * @param enabled whether the demo users are created (never in production: their passwords are known)
 */
public record DemoSettings(boolean enabled) {}
