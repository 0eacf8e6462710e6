/**
 * The step store: every step of every run as an append-only tree with a head per run.
 * The active path (root to head) is what the model sees; edits supersede, nothing is deleted,
 * until the run's Camunda history goes or an operator deletes the trace ({@link dev.agentloop.trace.TraceRetention}).
 * Besides, which run holds a conversation id ({@link dev.agentloop.trace.ConversationClaims}), and the schema scripts.
 */
package dev.agentloop.trace;
