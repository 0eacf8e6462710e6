package dev.agentloop.internal.evaluation;

/**
 * Where a case stands: waiting, its candidate run under way, done (with a verdict), or missing: its recorded run is
 * gone (deleted, or never was), which is reported and fails nothing else.
 */
enum CaseStatus {
  QUEUED, RUNNING, DONE, MISSING
}
