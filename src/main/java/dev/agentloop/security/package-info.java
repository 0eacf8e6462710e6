/**
 * Who may do what: the AgentLoop groups and their Camunda authorizations, authentication of the
 * REST APIs ({@code /api} and {@code /engine-rest}), and the demo users of the stand-alone app.
 * Every permission check itself is Camunda's; this package only sets up who is asking.
 */
package dev.agentloop.security;
