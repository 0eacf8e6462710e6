package dev.agentloop.internal.evaluation;

/** Where an evaluation stands: waiting for the lane, running its cases, done, or cut off by its node's stop. */
enum EvaluationStatus {
  QUEUED, RUNNING, DONE, INTERRUPTED
}
