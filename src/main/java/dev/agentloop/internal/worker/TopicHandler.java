package dev.agentloop.internal.worker;

import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves one external-task topic. {@link #handle} is called with no transaction open; it may read
 * the database briefly, then must not hold a connection while it waits (on a model, a tool).
 * The returned {@link TaskResult} is applied by the worker in one transaction with the completion.
 *
 * <p>When that transaction makes the process instance wait at another task this worker serves,
 * the worker locks that task in the same transaction and hands it the value the result's
 * {@code write} returned as {@code carried}: the state is exactly as written, so the handler
 * need not read it again. For tasks fetched from the database, {@code carried} is {@code null}.
 *
 * <p>The handlers of one worker hand each other one kind of state {@code S}: AgentLoop's are the
 * agent's loop state.
 *
 * <p>A stage that fails counts as a technical failure: the worker reports it with retries and
 * back-off, and an incident when they run out. Implementations must be thread-safe.
 */
public interface TopicHandler<S> {

  String topic();

  CompletionStage<TaskResult<S>> handle(LockedExternalTask task, S carried);
}
