/**
 * AgentLoop's REST API under {@code /api}: start runs, ask a conversation's follow-up questions, read
 * their status and trace, see the circuit breakers, and the API's own OpenAPI document
 * ({@code docs/api/openapi.json}, generated from these controllers by a test). Errors are RFC 9457 problem documents, also for what the
 * servlet container refuses and for inputs over a limit, which they name. (The engine's own REST API stays at
 * {@code /engine-rest}.)
 */
package dev.agentloop.internal.web;
