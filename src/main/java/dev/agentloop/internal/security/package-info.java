/**
 * Who may do what: the AgentLoop groups and their Camunda authorizations (per agent), authentication
 * of the REST APIs ({@code /api} and {@code /engine-rest}; through a filter chain of its own where the
 * application has Spring Security), the fence that keeps tool workers to their calls (which Camunda's
 * rights cannot express) and the check that keeps analysts to deploying agents. Every other permission check
 * is Camunda's.
 */
package dev.agentloop.internal.security;
