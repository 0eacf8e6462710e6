package dev.agentloop.internal.web;

import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.trace.RunQuery;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

/**
 * The parameters of {@code GET /api/runs} checked and turned into a {@link RunQuery}: each bad value
 * is an {@link InvalidParameterException} that names the parameter and what it must be.
 */
final class RunSearchParameters {

  static final int MAX_SIZE = 500;
  private static final Set<RunStatus> FINISHED = EnumSet.of(RunStatus.ANSWERED, RunStatus.REJECTED,
      RunStatus.STOPPED, RunStatus.CANCELLED);
  private static final int MAX_TEXT = 200;
  /** The instants every supported database stores (PostgreSQL's timestamps end in the year 294276). */
  private static final Instant EARLIEST = Instant.parse("0001-01-01T00:00:00Z");
  private static final Instant LATEST = Instant.parse("9999-12-31T23:59:59.999999Z");

  private RunSearchParameters() {}

  /**
   * @param status a {@link RunStatus} name, any case; WAITING and FAILED are kept apart by the engine,
   *     so {@link #engineStatus} filters those
   * @param from a date ({@code 2026-11-24}, from its start, UTC) or an instant ({@code 2026-11-24T12:00:00Z})
   * @param to likewise; a date includes its whole day
   */
  static RunQuery query(String agent, boolean finished, String status, String from, String to, String editedBy,
      String q, int page, int size) {
    if (size < 1 || size > MAX_SIZE) {
      throw new InvalidParameterException("size", String.valueOf(size), "between 1 and " + MAX_SIZE);
    }
    if (page < 0 || (long) page * size > Integer.MAX_VALUE) {
      throw new InvalidParameterException("page", String.valueOf(page), "0 or more (the first page is 0)");
    }
    RunStatus wanted = status(status);
    Set<RunStatus> statuses = wanted == null ? (finished ? FINISHED : Set.of())
        : wanted == RunStatus.WAITING || wanted == RunStatus.FAILED ? Set.of(RunStatus.RUNNING) : Set.of(wanted);
    if (finished && wanted != null && !FINISHED.contains(wanted)) {
      throw new InvalidParameterException("status", status, "a finished status " + FINISHED + " with finished=true");
    }
    Instant start = instant("from", from, false);
    Instant end = instant("to", to, true);
    if (start != null && end != null && !start.isBefore(end)) {
      throw new InvalidParameterException("to", to, "after 'from' (" + from + ")");
    }
    return new RunQuery(agent, statuses, start, end, text("editedBy", editedBy), text("q", q), page * size, size);
  }

  /** WAITING or FAILED when the search asks for one of them (the engine tells them apart), else {@code null}. */
  static RunStatus engineStatus(String status) {
    RunStatus wanted = status(status);
    return wanted == RunStatus.WAITING || wanted == RunStatus.FAILED ? wanted : null;
  }

  private static RunStatus status(String status) {
    if (status == null || status.isBlank()) {
      return null;
    }
    try {
      return RunStatus.valueOf(status.trim().toUpperCase());
    } catch (IllegalArgumentException e) {
      throw new InvalidParameterException("status", status, "one of " + Arrays.toString(RunStatus.values()));
    }
  }

  private static Instant instant(String name, String value, boolean endOfDay) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      if (value.length() == 10) {
        LocalDate day = LocalDate.parse(value);
        return (endOfDay ? day.plusDays(1) : day).atStartOfDay().toInstant(ZoneOffset.UTC);
      }
      Instant instant = Instant.parse(value);
      if (instant.isBefore(EARLIEST) || instant.isAfter(LATEST)) {
        throw new InvalidParameterException(name, value, "between the years 0001 and 9999");
      }
      return instant;
    } catch (DateTimeParseException e) {
      throw new InvalidParameterException(name, value, "a date (2026-11-24) or an instant (2026-11-24T12:00:00Z)");
    }
  }

  /**
   * The agent's key as a search may name it: no database holds a NUL, and PostgreSQL fails on one
   * (the text is shown escaped, so the problem document is readable).
   */
  static String agent(String agent) {
    if (agent.indexOf('\0') >= 0) {
      throw new InvalidParameterException("agent", printable(agent), "a process-definition key, without NUL characters");
    }
    return agent;
  }

  /** A conversation id as {@code POST /api/runs} takes it ({@link StartRunRequest#CONVERSATION_ID}), or {@code null}. */
  static String conversationId(String id) {
    if (id != null && !id.matches(StartRunRequest.CONVERSATION_ID)) {
      throw new InvalidParameterException("conversationId", printable(id),
          "1 to 100 letters, digits or . _ : @ - characters, starting with a letter or digit");
    }
    return id;
  }

  private static String printable(String value) {
    String shown = value.length() > 40 ? value.substring(0, 40) + "…" : value;
    return shown.replace("\0", "\\u0000");
  }

  private static String text(String name, String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    if (value.length() > MAX_TEXT) {
      throw new InvalidParameterException(name, printable(value), "at most " + MAX_TEXT + " characters");
    }
    if (value.indexOf('\0') >= 0) {
      throw new InvalidParameterException(name, printable(value), "text without NUL characters (no stored text holds one)");
    }
    return value.trim();
  }
}
