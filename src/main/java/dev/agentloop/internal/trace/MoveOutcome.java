package dev.agentloop.internal.trace;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** What became of one run a migration named. */
public enum MoveOutcome {
  /** The run is on the new version (in a dry run: it would be). */
  MIGRATED,
  /** The run stays on its version; the reason says why, in words. */
  REFUSED,
  /** The run was busy and moves when it next waits (as the request chose). */
  PENDING;

  /** As the API and the table write it: {@code migrated}, {@code refused}, {@code pending}. */
  @JsonValue
  public String value() {
    return name().toLowerCase(Locale.ROOT);
  }

  static MoveOutcome of(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
