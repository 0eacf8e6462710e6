package dev.agentloop.internal.security;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Map;
import org.springframework.http.HttpStatus;

/** Refusals written by the security filters, in the same RFC 9457 shape as every other error of {@code /api}. */
final class ProblemResponses {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ProblemResponses() {}

  static void write(HttpServletResponse response, HttpStatus status, String detail) throws IOException {
    String title = status == HttpStatus.UNAUTHORIZED ? "Authentication required" : status.getReasonPhrase();
    response.setStatus(status.value());
    if (status == HttpStatus.UNAUTHORIZED) {
      response.setHeader("WWW-Authenticate", "Basic realm=\"AgentLoop\"");
    }
    response.setContentType("application/problem+json");
    JSON.writeValue(response.getOutputStream(),
        Map.of("type", "about:blank", "title", title, "status", status.value(), "detail", detail));
  }
}
