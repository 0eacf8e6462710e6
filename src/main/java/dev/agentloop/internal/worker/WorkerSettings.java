package dev.agentloop.internal.worker;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The embedded external-task worker that serves the agent topics, as configured
 * ({@code agentloop.worker.*}, bound and validated by package {@code config}). The worker runs on
 * {@link WorkerOptions}, made from these with a stable worker id when none is configured. Immutable.
 *
 * @param enabled whether this node runs the embedded worker; false: a node that only serves the UI and API
 * @param workerId the id this node locks tasks under; empty: host name and server port, stable across restarts,
 *     so that a restarted node takes its tasks back at once
 * @param maxConcurrency tasks in flight at once; waiting on a model holds no thread, only memory
 * @param maxTasksPerFetch tasks locked by one fetch
 * @param lockDuration how long a fetched task stays locked; a live worker extends the locks of tasks in flight
 *     every third of it, so a dead node's tasks return to the others after at most this long
 * @param idleWait longest pause between fetches when idle (tasks created in this JVM wake the worker at once)
 * @param retries retries of a failed task after the first failure; then an incident shows in Cockpit
 * @param retryBackoff the wait before the first retry, doubled on every further failure
 * @param threads threads that prepare and complete tasks in their transactions
 * @param shutdownGrace how long a stopping node finishes tasks in flight before it unlocks the rest for others
 * @param maxTaskTime longest a task may take (its model or tool calls with their retries); then it fails and is
 *     retried
 */
public record WorkerSettings(
@DefaultValue("true")     boolean enabled,
    /* empty: host name and server port, stable across restarts (random suffix with a random port) */
    String workerId,
    @DefaultValue("1024") @Positive int maxConcurrency,
    @DefaultValue("32") @Positive int maxTasksPerFetch,
    @DefaultValue("PT20S") @NotNull Duration lockDuration,
    @DefaultValue("PT1S") @NotNull Duration idleWait,
    @DefaultValue("3") @PositiveOrZero int retries,
    @DefaultValue("PT5S") @NotNull Duration retryBackoff,
    @DefaultValue("2") @Positive int threads,
    @DefaultValue("PT10S") @NotNull Duration shutdownGrace,
    /* longest a task may take (model or tool calls with their retries); then it fails and is retried */
    @DefaultValue("PT10M") @NotNull Duration maxTaskTime) {}
