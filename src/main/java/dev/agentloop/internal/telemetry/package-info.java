/**
 * Runs as OpenTelemetry traces by the GenAI semantic conventions (agent, plan, model and tool calls), with people's
 * decisions as spans of AgentLoop's own, through Micrometer Tracing: the host's tracer and exporter, nothing without.
 * The trace context is stored with the run, so one run is one trace across threads, nodes and restarts.
 */
package dev.agentloop.internal.telemetry;
