/**
 * Resume with action: edit any step of a run, regenerate its answer or any turn's (asking the later
 * turns again or not), restart a finished run from a step, or stop it; ask a conversation its next
 * question, or close it. Trace surgery in the step store plus process instance modification, in one
 * transaction; side effects of abandoned branches are listed and never silently repeated. Move waiting
 * runs to another version of their agent: Camunda's migration at safe points, audited, a batch for many.
 */
package dev.agentloop.internal.resume;
