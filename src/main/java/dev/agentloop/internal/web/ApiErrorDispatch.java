package dev.agentloop.internal.web;

import dev.agentloop.internal.security.ApiSettings;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Errors of AgentLoop's API that arise before any of its controllers runs — an unsupported content
 * type (415), a path or method it does not have (404, 405) — reach the servlet container's error page,
 * which Spring Boot answers in its own JSON shape. For requests to the API's resources this filter
 * answers the error dispatch with a problem document like every other error of the API; the error page
 * of every other path (the application's own under the same base path too) stays the application's.
 */
class ApiErrorDispatch extends OncePerRequestFilter {

  private final ApiSettings api;

  ApiErrorDispatch(ApiSettings api) {
    this.api = api;
  }

  @Override
  protected boolean shouldNotFilterErrorDispatch() {
    return false;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    Object uri = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
    return request.getDispatcherType() != DispatcherType.ERROR || !(uri instanceof String path) || !ApiErrors.isApi(api, request.getContextPath(), path);
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    Object code = request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE);
    int status = code instanceof Integer value ? value : HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
    response.setStatus(status);
    response.setContentType(ApiErrors.CONTENT_TYPE);
    response.setCharacterEncoding("UTF-8");
    response.getWriter().write(ApiErrors.problem(status, request.getMethod(),
        (String) request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI), request.getContextPath(), api.basePath()));
  }
}
