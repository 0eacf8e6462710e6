/**
 * Evaluations: a candidate diagram run on recorded runs and data sets under a key of its own, its tool calls and
 * reviews replayed from the record, each case checked and given a verdict, and a person's promotion of it.
 */
package dev.agentloop.internal.evaluation;
