package dev.agentloop.internal.web;

import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.events.EventCursor;
import dev.agentloop.internal.events.RunEvents;
import dev.agentloop.internal.events.RunEventsSettings;
import dev.agentloop.internal.security.RunAccess;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** {@code GET /api/runs/{id}/events}: the run as server-sent events, see {@link RunEvents}. */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/runs")
class RunEventController {

  /** Longer than a following lasts, so that the stream ends by the following's end, never by the container. */
  private static final long MARGIN_MILLIS = 60_000;

  private final RunEvents events;
  private final RunAccess access;
  private final RunEventsSettings settings;

  RunEventController(RunEvents events, RunAccess access, RunEventsSettings settings) {
    this.events = events;
    this.access = access;
    this.settings = settings;
  }

  /**
   * The run's events from its first step, or after the event whose id the client sends back in {@code Last-Event-ID}
   * (browsers' {@code EventSource} do so when they reconnect). Who may read the run may follow it.
   */
  @GetMapping(path = "/{id}/events", produces = "text/event-stream")
  SseEmitter events(@PathVariable String id,
      @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId) {
    if (!access.mayRead(id)) {
      throw new UnknownRunException(id);
    }
    EventCursor from = cursor(lastEventId);
    SseEmitter emitter = new SseEmitter(settings.maxDuration().toMillis() + MARGIN_MILLIS);
    RunEvents.Following following;
    try {
      following = events.follow(id, from, new RunEventStream(emitter));
    } catch (IllegalArgumentException e) {
      throw new InvalidParameterException("Last-Event-ID", lastEventId, "the id of an event of this run: "
          + e.getMessage());
    }
    emitter.onCompletion(following::close);
    emitter.onTimeout(following::close);
    emitter.onError(error -> following.close());
    return emitter;
  }

  private static EventCursor cursor(String lastEventId) {
    if (lastEventId == null || lastEventId.isBlank()) {
      return EventCursor.START;
    }
    try {
      return EventCursor.parse(lastEventId);
    } catch (IllegalArgumentException e) {
      throw new InvalidParameterException("Last-Event-ID", lastEventId, "the id of an event of this run, as it was"
          + " sent (such as 12-R)");
    }
  }
}
