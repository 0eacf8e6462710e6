package dev.agentloop.internal.review;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * Lets Tasklist show a refused review in the words meant for the person. The engine wraps what a task
 * listener throws ({@code ENGINE-03051 There was an exception while invoking the TaskListener.
 * Message: '…'}) and the engine REST API puts {@code Cannot submit task form <id>:} before it, as a
 * server error; Tasklist shows that whole text in a banner over the form. So when a submit-form of an
 * AgentLoop review was refused ({@link Refusals#refuse}, on the request's own thread), the answer is a 400 whose
 * message is the review's sentence alone. Every other request and answer passes untouched. Thread-safe.
 */
class RefusalMessages extends OncePerRequestFilter {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !("POST".equals(request.getMethod()) && request.getRequestURI().endsWith("/submit-form"));
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
    Refusals.clear();
    try {
      chain.doFilter(request, answer);
      String refusal = Refusals.current();
      if (refusal != null && answer.getStatus() >= 400 && !response.isCommitted()) {
        answer.resetBuffer();
        answer.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        answer.setContentType("application/json");
        ObjectNode body = JSON.createObjectNode().put("type", ReviewException.class.getSimpleName())
            .put("message", refusal);
        answer.getOutputStream().write(JSON.writeValueAsBytes(body));
      }
    } finally {
      Refusals.clear();
      answer.copyBodyToResponse();
    }
  }
}
