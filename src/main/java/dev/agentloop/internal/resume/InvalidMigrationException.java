package dev.agentloop.internal.resume;

/** A migration that cannot be asked for as it was (no such version, no runs named, no reason): nothing moved. */
public class InvalidMigrationException extends RuntimeException {

  public InvalidMigrationException(String message) {
    super(message);
  }
}
