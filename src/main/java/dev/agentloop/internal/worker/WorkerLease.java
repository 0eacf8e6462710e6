package dev.agentloop.internal.worker;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.UUID;
import org.camunda.bpm.engine.impl.interceptor.CommandContext;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.impl.persistence.entity.PropertyEntity;

/**
 * Makes sure that one live process at a time works under a worker id. A worker that starts takes
 * back the tasks its id still holds from before a crash (see {@link WorkerIdentity}); were a
 * second live node to share the id, it would take the first node's in-flight tasks and call their
 * model and tools a second time. So the id is leased: a row in the engine's property table
 * ({@code ACT_GE_PROPERTY}, as the engine's own startup lock) names the process that holds it and
 * when it last renewed it. A process may take the id only when nobody holds it or the holder has
 * not renewed it for {@link #TTL}. A restarted node waits at most that long for its dead
 * predecessor's lease; a node started with an id in use waits, serving nothing, as long as the other
 * node lives. Optimistic locking on the row decides between two processes that claim at once.
 *
 * <p>Not thread-safe: the worker's fetcher thread is its only user.
 */
class WorkerLease {

  /** How long a lease lasts without renewal; the holder renews it every third of that. */
  static final Duration TTL = Duration.ofSeconds(15);
  static final Duration RENEWAL = TTL.dividedBy(3);
  private static final String PREFIX = "agentloop.worker.";
  /** The property table's name column holds 64 characters. */
  private static final int MAX_NAME = 64;

  private final CommandExecutor commands;
  private final String name;
  private final String holder = UUID.randomUUID().toString();

  WorkerLease(CommandExecutor commands, String workerId) {
    this.commands = commands;
    this.name = propertyName(workerId);
  }

  /** Who holds a worker id: a process and when it last renewed its lease. */
  record Holder(String process, Instant renewed) {

    static Holder parse(String value) {
      int at = value.lastIndexOf('@');
      return new Holder(value.substring(0, at), Instant.ofEpochMilli(Long.parseLong(value.substring(at + 1))));
    }

    String value() {
      return process + "@" + renewed.toEpochMilli();
    }
  }

  /**
   * Takes the id, or renews it when this process has it already.
   *
   * @return {@code null} when this process holds the id now, else the live process that holds it
   */
  Holder claim() {
    return commands.execute(context -> {
      PropertyEntity row = context.getDbEntityManager().selectById(PropertyEntity.class, name);
      Instant now = Instant.now();
      String mine = new Holder(holder, now).value();
      if (row == null) {
        context.getDbEntityManager().insert(new PropertyEntity(name, mine));
        return null;
      }
      Holder current = Holder.parse(row.getValue());
      if (!current.process().equals(holder) && current.renewed().plus(TTL).isAfter(now)) {
        return current;
      }
      row.setValue(mine);
      return null;
    });
  }

  /** Gives the id up, if this process holds it, so that a successor need not wait for the lease to run out. */
  void release() {
    commands.execute((CommandContext context) -> {
      PropertyEntity row = context.getDbEntityManager().selectById(PropertyEntity.class, name);
      if (row != null && Holder.parse(row.getValue()).process().equals(holder)) {
        context.getDbEntityManager().delete(row);
      }
      return null;
    });
  }

  private static String propertyName(String workerId) {
    String name = PREFIX + workerId;
    if (name.length() <= MAX_NAME) {
      return name;
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(workerId.getBytes(StandardCharsets.UTF_8));
      return PREFIX + "sha256:" + HexFormat.of().formatHex(hash).substring(0, MAX_NAME - PREFIX.length() - 7);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JVM", e);
    }
  }
}
