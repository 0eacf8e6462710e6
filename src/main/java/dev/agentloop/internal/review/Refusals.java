package dev.agentloop.internal.review;

/**
 * Why a review refused the submission this thread is serving, for {@link RefusalMessages} to answer the request
 * with (the engine completes a task on the caller's thread). Apart from that filter so that reviews refuse alike in
 * an application without a web layer, where nothing reads it. Thread-safe.
 */
final class Refusals {

  private static final ThreadLocal<String> REFUSED = new ThreadLocal<>();

  private Refusals() {}

  /** Remembers why a review refused a submission, for the answer to the request that made it. */
  static <E extends RuntimeException> E refuse(E refusal) {
    REFUSED.set(refusal.getMessage());
    return refusal;
  }

  /** The refusal of the submission this thread serves, or {@code null}. */
  static String current() {
    return REFUSED.get();
  }

  /** Forgets it: a request begins or ends. */
  static void clear() {
    REFUSED.remove();
  }
}
