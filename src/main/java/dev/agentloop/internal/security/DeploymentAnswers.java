package dev.agentloop.internal.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.definition.DeploymentWarnings;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ContentCachingResponseWrapper;

/**
 * The engine REST API's answer to a deployment ({@code POST …/deployment/create}, what Modeler's Deploy sends) with
 * AgentLoop's warnings about it in a field of their own, {@code agentloopWarnings}: a list of sentences, e.g. that a
 * copied agent keeps another agent's prompt. The person who deploys from Modeler does not read the server's log. An
 * answer without warnings, or that is no JSON object (a refusal), goes out as the engine made it. Thread-safe.
 */
class DeploymentAnswers extends OncePerRequestFilter {

  static final String FIELD = "agentloopWarnings";
  private static final ObjectMapper JSON = new ObjectMapper();

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    return !"POST".equals(request.getMethod()) || !request.getRequestURI().endsWith("/deployment/create");
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    ContentCachingResponseWrapper answer = new ContentCachingResponseWrapper(response);
    DeploymentWarnings.open();
    List<String> warnings;
    try {
      chain.doFilter(request, answer);
    } finally {
      warnings = DeploymentWarnings.close();
    }
    if (!warnings.isEmpty() && answer.getStatus() == HttpServletResponse.SC_OK) {
      withWarnings(answer, warnings);
    }
    answer.copyBodyToResponse();
  }

  private static void withWarnings(ContentCachingResponseWrapper answer, List<String> warnings) throws IOException {
    JsonNode body;
    try {
      body = JSON.readTree(answer.getContentAsByteArray());
    } catch (IOException notJson) {
      return;
    }
    if (body instanceof ObjectNode deployment) {
      warnings.forEach(deployment.putArray(FIELD)::add);
      answer.resetBuffer();
      answer.getOutputStream().write(JSON.writeValueAsBytes(deployment));
    }
  }
}
