package dev.agentloop.internal.agent.definition;

import java.util.ArrayList;
import java.util.List;

/**
 * Warnings about a deployment for the person who deploys it, beside the log: the deployment's answer says them too
 * (Modeler's user does not read the server's log). Collected on the deploying thread between {@link #open} and
 * {@link #close}, which the engine REST API's deployment request brackets; where nobody opened a collection (a
 * deployment at start, from Java), nothing is kept. Thread-safe: each thread has its own.
 */
public final class DeploymentWarnings {

  private static final ThreadLocal<List<String>> COLLECTED = new ThreadLocal<>();

  private DeploymentWarnings() {}

  /** Starts collecting the warnings of the deployments this thread makes. */
  public static void open() {
    COLLECTED.set(new ArrayList<>());
  }

  /** Stops collecting; the warnings collected since {@link #open}, in their order. */
  public static List<String> close() {
    List<String> collected = COLLECTED.get();
    COLLECTED.remove();
    return collected == null ? List.of() : List.copyOf(collected);
  }

  /** Keeps a warning for whoever opened a collection on this thread; nothing where nobody did. */
  static void add(String warning) {
    List<String> collected = COLLECTED.get();
    if (collected != null) {
      collected.add(warning);
    }
  }
}
