/**
 * How long a trace stays: it goes with its run's Camunda history (the history cleanup), or when an operator deletes a
 * finished run's trace, which leaves a tombstone.
 */
package dev.agentloop.internal.trace.retention;
