package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.events.RunEvent;
import dev.agentloop.internal.events.RunEventSink;
import java.io.IOException;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * A run's events as server-sent events: each event's name is its type, its id the cursor to resume from, its data
 * one line of JSON (the API's own mapper); a silent stream sends a comment now and then.
 */
final class RunEventStream implements RunEventSink {

  private static final ObjectMapper JSON = ApiJson.mapper();

  private final SseEmitter emitter;

  RunEventStream(SseEmitter emitter) {
    this.emitter = emitter;
  }

  @Override
  public void send(RunEvent event) throws IOException {
    SseEmitter.SseEventBuilder sse = SseEmitter.event().name(event.type())
        .data(JSON.writeValueAsString(event), MediaType.APPLICATION_JSON);
    if (event.cursor() != null) {
      sse.id(event.cursor().id());
    }
    emitter.send(sse);
  }

  @Override
  public void keepAlive() throws IOException {
    emitter.send(SseEmitter.event().comment("keep-alive"));
  }

  @Override
  public void closed(Throwable failure) {
    // a failed send means the client went away: completing is all there is left to do
    emitter.complete();
  }
}
