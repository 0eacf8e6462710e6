package dev.agentloop.internal.agent.run;

import dev.agentloop.internal.trace.ConversationClaims;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.runtime.ProcessInstance;

/**
 * Starts runs under a conversation id so that one open run holds an id at a time on every node of a cluster: the
 * id's claim ({@link ConversationClaims}) is written in the transaction that starts the run's process instance.
 * Of two starts racing for one id the database lets one claim commit; the other's transaction rolls back with
 * nothing of it left (no instance, no run record, no step) and the caller gets a {@link ConversationInUseException}
 * naming the run that won.
 *
 * <p>No lock of this JVM's serialises the starts: the check before a start only spares a start that is bound to
 * fail, and a client sending one id twice at the same moment is rare enough that a start rolled back now and then
 * costs less than a lock that would not hold across nodes anyway. Thread-safe.
 */
final class ConversationStarts {

  /** A race lost to a start that failed after its claim (nobody holds the id then): tried once more. */
  private static final int ATTEMPTS = 2;

  private final RuntimeService runtime;
  private final CommandExecutor commands;
  private final ConversationClaims claims;

  /** @param commands runs a command in the caller's transaction or a new one, without authorization checks */
  ConversationStarts(RuntimeService runtime, CommandExecutor commands, ConversationClaims claims) {
    this.runtime = runtime;
    this.commands = commands;
    this.claims = claims;
  }

  /**
   * Starts a run holding the id.
   *
   * @param start starts the run's process instance in the caller's transaction and answers its id
   * @param committed runs a start in one transaction of its own and commits it
   * @throws ConversationInUseException when an open run holds the id, or took it while this one started
   */
  String start(String conversationId, Supplier<String> start, TransactionRunner committed) {
    for (int attempt = 1; ; attempt++) {
      String endedHolder = endedHolder(conversationId);
      try {
        return committed.run(() -> {
          String runId = start.get();
          if (!claims.claim(conversationId, runId, endedHolder)) {
            throw new ClaimTaken(conversationId);
          }
          return runId;
        });
      } catch (ClaimTaken lost) {
        // rolled back: the run that took the id in the meantime is committed, and named to the caller
        Optional<String> winner = claims.holder(conversationId);
        if (winner.isPresent() || attempt == ATTEMPTS) {
          throw new ConversationInUseException(conversationId, winner.orElse(null));
        }
      }
    }
  }

  /**
   * The run that held the id and has ended, to take the claim over from; {@code null} when no run claimed it.
   * The claim is read first, then the open instances: a run that claims the id in between is open by then and
   * found, so a claim read here is never taken over from a run that is still open.
   *
   * @throws ConversationInUseException when an open run holds the id; its business key finds it, also where it
   *     started before there were claims
   */
  private String endedHolder(String conversationId) {
    String holder = claims.holder(conversationId).orElse(null);
    List<String> open = commands.execute(context -> context.runWithoutAuthorization(() ->
        runtime.createProcessInstanceQuery().processInstanceBusinessKey(conversationId).rootProcessInstances()
            .list().stream().map(ProcessInstance::getId).toList()));
    if (!open.isEmpty()) {
      throw new ConversationInUseException(conversationId, open.contains(holder) ? holder : open.get(0));
    }
    return holder;
  }

  /** Runs a start in a transaction and commits it, or rolls it back when the start throws. */
  @FunctionalInterface
  interface TransactionRunner {
    String run(Supplier<String> start);
  }

  /**
   * The id's claim went to another start; thrown to roll the start's transaction back. An optimistic-locking
   * failure, as the engine's own lost races are, so that the engine logs it at debug level, not as an error.
   */
  private static final class ClaimTaken extends OptimisticLockingException {
    ClaimTaken(String conversationId) {
      super("conversation id '" + conversationId + "' was claimed by another start at the same moment;"
          + " this start is rolled back");
    }
  }
}
