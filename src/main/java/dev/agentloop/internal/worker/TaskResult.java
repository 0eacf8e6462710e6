package dev.agentloop.internal.worker;

import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * How a handled task ends. {@code write} runs first inside the completing transaction (trace
 * steps); if it or the completion fails, neither is applied. What {@code write} returns is carried
 * to the instance's next task when this worker takes it in the same transaction (see
 * {@link TopicHandler}); it may be {@code null}.
 *
 * @param <S> the state the handlers of this worker hand on
 */
public sealed interface TaskResult<S> {

  Map<String, Object> variables();

  Supplier<? extends S> write();

  /**
   * What to keep when the task is gone by the time its result comes (the run left the loop meanwhile):
   * runs in a transaction of its own instead of {@link #write}. By default nothing.
   */
  Runnable whenGone();

  /** The task completes; the process continues along its outgoing flow. */
  record Complete<S>(Map<String, Object> variables, Supplier<? extends S> write, Runnable whenGone)
      implements TaskResult<S> {
    public Complete {
      variables = Map.copyOf(variables);
      Objects.requireNonNull(write, "write");
      whenGone = whenGone == null ? NOTHING : whenGone;
    }

    public Complete(Map<String, Object> variables, Supplier<? extends S> write) {
      this(variables, write, NOTHING);
    }
  }

  /** A modelled outcome: a BPMN error the diagram catches with a boundary event. */
  record Escape<S>(String errorCode, String message, Map<String, Object> variables, Supplier<? extends S> write,
      Runnable whenGone) implements TaskResult<S> {
    public Escape {
      Objects.requireNonNull(errorCode, "errorCode");
      Objects.requireNonNull(message, "message");
      variables = Map.copyOf(variables);
      Objects.requireNonNull(write, "write");
      whenGone = whenGone == null ? NOTHING : whenGone;
    }

    public Escape(String errorCode, String message, Map<String, Object> variables, Supplier<? extends S> write) {
      this(errorCode, message, variables, write, NOTHING);
    }
  }

  /** Keeps nothing. */
  Runnable NOTHING = () -> { };
}
