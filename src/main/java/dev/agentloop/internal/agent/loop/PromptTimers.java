package dev.agentloop.internal.agent.loop;

import java.time.Duration;
import org.camunda.bpm.engine.impl.cfg.AbstractProcessEnginePlugin;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.jobexecutor.JobExecutor;

/**
 * Lets the engine's job executor look for due timers at least every {@link #MAX_WAIT}: a run's
 * run-time budget ({@link RunTimeRanOut}, a boundary timer) then fires within seconds of its deadline.
 * When it finds no job, Camunda's job executor waits longer and longer, by default up to a minute, and
 * a timer created in the future wakes nobody: the budget fired up to a minute late. A shorter wait
 * configured by the application ({@code camunda.bpm.job-execution.max-wait}) is kept. Costs one small
 * query per node every few seconds when idle.
 */
public class PromptTimers extends AbstractProcessEnginePlugin {

  /** The longest a due timer waits for the job executor to see it. */
  static final Duration MAX_WAIT = Duration.ofSeconds(2);

  @Override
  public void postInit(ProcessEngineConfigurationImpl configuration) {
    JobExecutor jobs = configuration.getJobExecutor();
    if (jobs != null && jobs.getMaxWait() > MAX_WAIT.toMillis()) {
      jobs.setMaxWait(MAX_WAIT.toMillis());
      jobs.setWaitTimeInMillis((int) Math.min(jobs.getWaitTimeInMillis(), MAX_WAIT.toMillis()));
    }
  }
}
