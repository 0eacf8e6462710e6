package dev.agentloop.internal.agent.run;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.llm.limits.ModelQueue;
import java.util.Date;
import java.util.List;
import java.util.OptionalInt;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.ExternalTask;
import org.camunda.bpm.engine.impl.util.ClockUtil;

/**
 * Where a run's model step waits for a model slot, and how many go before it: in this node's queue in front of
 * the endpoint (its place there), or still in the database because no node had room to take it (the calls queued
 * here, and the agents' steps in the database that were ready before it). A step in the database counts only what
 * this node sees: another node's queue is not. Thread-safe.
 */
final class ModelSlotWait {

  /** Ready steps read at most to count those before a waiting one: beyond it, "at least" this many. */
  private static final int COUNTED = 10_000;
  private static final List<String> AGENT_TOPICS =
      List.of(ReactAgentProcess.TOPIC_PLAN, ReactAgentProcess.TOPIC_THINK, ReactAgentProcess.TOPIC_ACT);

  private final ProcessEngine engine;
  private final ModelQueue queue;

  ModelSlotWait(ProcessEngine engine, ModelQueue queue) {
    this.engine = engine;
    this.queue = queue;
  }

  /** How many calls go before the run's model step; {@code null} when its call is under way. */
  Integer ahead(String runId, ExternalTask task) {
    OptionalInt here = queue.ahead(runId);
    if (here.isPresent()) {
      return here.getAsInt();
    }
    Date now = ClockUtil.getCurrentTime();
    boolean locked = task.getLockExpirationTime() != null && task.getLockExpirationTime().after(now);
    return locked ? null : queue.waiting() + readyBefore(task);
  }

  /** The agents' steps ready in the database that were created before this one: a worker takes those first. */
  private int readyBefore(ExternalTask task) {
    int before = 0;
    for (String topic : AGENT_TOPICS) {
      before += (int) engine.getExternalTaskService().createExternalTaskQuery().topicName(topic).notLocked().active()
          .withRetriesLeft().orderByCreateTime().asc().listPage(0, COUNTED).stream()
          .filter(ready -> !ready.getId().equals(task.getId()) && ready.getCreateTime().before(task.getCreateTime()))
          .count();
    }
    return before;
  }
}
