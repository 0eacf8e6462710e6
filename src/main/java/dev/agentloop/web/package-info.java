/**
 * AgentLoop's REST API under {@code /api}: start runs, ask a conversation's follow-up questions, read
 * their status and trace, see the circuit breakers. Errors are RFC 9457 problem documents. (The engine's own REST API stays at
 * {@code /engine-rest}.)
 */
package dev.agentloop.web;
