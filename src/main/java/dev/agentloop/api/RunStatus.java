package dev.agentloop.api;

/**
 * Where a run stands. The stored status is RUNNING until the process ends; RUNNING runs are shown
 * as WAITING or FAILED when a person or an operator has to act.
 */
public enum RunStatus {
  RUNNING, WAITING, FAILED, ANSWERED, REJECTED, STOPPED, CANCELLED;

  public boolean isFinished() {
    return this == ANSWERED || this == REJECTED || this == STOPPED || this == CANCELLED;
  }
}
