package dev.agentloop.internal.events;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a follower of a run stands: the last step it was sent and the state of the run it was last told. Written
 * as an SSE event id ({@link #id()}, e.g. {@code 12-W3f2a9c1b}) and read back from {@code Last-Event-ID}
 * ({@link #parse}), so that a follower resumes on any node: nothing of it is kept on the server.
 *
 * @param step the number of the last step sent, 0 before the first
 * @param state the run's state last told: {@code N} nothing yet, {@code R} working, {@code W} or {@code F} and eight
 *     hex digits waiting for people or failed (the digits tell one wait or incident from another), {@code E} ended
 */
public record EventCursor(int step, String state) {

  private static final Pattern STATE = Pattern.compile("[NRE]|[WF][0-9a-f]{8}");
  private static final Pattern ID = Pattern.compile("(\\d{1,9})-(" + STATE.pattern() + ")");

  /** Nothing seen yet: a follower starting here is sent the run from its first step. */
  public static final EventCursor START = new EventCursor(0, "N");

  public EventCursor {
    if (step < 0) {
      throw new IllegalArgumentException("step must not be negative, was " + step);
    }
    if (state == null || !STATE.matcher(state).matches()) {
      throw new IllegalArgumentException("state must be N, R, E or W/F and eight hex digits, was " + state);
    }
  }

  /**
   * The cursor an event id names.
   *
   * @throws IllegalArgumentException when {@code id} is not an id a run's events carry
   */
  public static EventCursor parse(String id) {
    Matcher matcher = id == null ? null : ID.matcher(id.strip());
    if (matcher == null || !matcher.matches()) {
      throw new IllegalArgumentException("'" + id + "' is not the id of a run's event: send back the id of the last"
          + " event received (such as 12-R), or none to start from the run's first step");
    }
    return new EventCursor(Integer.parseInt(matcher.group(1)), matcher.group(2));
  }

  /** The SSE event id. */
  public String id() {
    return step + "-" + state;
  }

  EventCursor afterStep(int stepNo) {
    return new EventCursor(stepNo, state);
  }

  EventCursor inState(String newState) {
    return new EventCursor(step, newState);
  }
}
