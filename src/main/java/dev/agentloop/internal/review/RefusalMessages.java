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
 * AgentLoop review was refused ({@link #refuse}, on the request's own thread), the answer is a 400 whose
 * message is the review's sentence alone. Every other request and answer passes untouched. Thread-safe.
 */
class RefusalMessages extends OncePerRequestFilter {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** The refusal of the submission this thread is serving; the engine completes a task on the caller's thread. */
  private static final ThreadLocal<String> REFUSED = new ThreadLocal<>();

  /** Remembers why a review refused a submission, for the answer to the request that made it. */
  static <E extends RuntimeException> E refuse(E refusal) {
    REFUSED.set(refusal.getMessage());
    return refusal;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !("POST".equals(request.getMethod()) && request.getRequestURI().endsWith("/submit-form"));
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
    REFUSED.remove();
    try {
      chain.doFilter(request, answer);
      String refusal = REFUSED.get();
      if (refusal != null && answer.getStatus() >= 400 && !response.isCommitted()) {
        answer.resetBuffer();
        answer.setStatus(HttpServletResponse.SC_BAD_REQUEST);
        answer.setContentType("application/json");
        ObjectNode body = JSON.createObjectNode().put("type", ReviewException.class.getSimpleName())
            .put("message", refusal);
        answer.getOutputStream().write(JSON.writeValueAsBytes(body));
      }
    } finally {
      REFUSED.remove();
      answer.copyBodyToResponse();
    }
  }
}
