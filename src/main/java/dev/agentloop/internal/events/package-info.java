/**
 * A run as a stream of events — steps appended, a wait for a person, resumed, the model's text as it arrives, the
 * answer, the end — derived from the step store and the engine, so that it is the same whichever node wrote the
 * run; woken early by the changes written in this JVM. What {@code /api/runs/{id}/events}, MCP and A2A stream.
 * Entry point: {@link dev.agentloop.internal.events.RunEvents}.
 */
package dev.agentloop.internal.events;
