/**
 * The step store: every step of every run as an append-only tree with a head per run.
 * The active path (root to head) is what the model sees; edits supersede, nothing is deleted,
 * until the run's Camunda history goes or an operator deletes the trace ({@link dev.agentloop.internal.trace.retention}).
 * What a step holds is {@link dev.agentloop.internal.trace.step}; the tables and their versions are
 * {@link dev.agentloop.internal.trace.schema}.
 * Which run holds a conversation id is here too ({@link dev.agentloop.internal.trace.ConversationClaims}).
 */
package dev.agentloop.internal.trace;
