package dev.agentloop.worker;

import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import java.time.Duration;

/**
 * The embedded external-task worker that serves the agent topics, as configured
 * ({@code agentloop.worker.*}, bound and validated by package {@code config}). The worker runs on
 * {@link WorkerSettings}, made from these with a stable worker id when none is configured. Immutable.
 */
public record WorkerProperties(
    boolean enabled,
    /* empty: host name and server port, stable across restarts (random suffix with a random port) */
    String workerId,
    @Positive int maxConcurrency,
    @Positive int maxTasksPerFetch,
    @NotNull Duration lockDuration,
    @NotNull Duration idleWait,
    @PositiveOrZero int retries,
    @NotNull Duration retryBackoff,
    @Positive int threads,
    @NotNull Duration shutdownGrace,
    /* longest a task may take (model or tool calls with their retries); then it fails and is retried */
    @NotNull Duration maxTaskTime) {}
