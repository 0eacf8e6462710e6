package dev.agentloop.internal.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A request sent straight to the error page ({@code server.error.path}, {@code /error}) rather than
 * forwarded there by a failed request: Spring Boot's error controller finds no error to show and answers
 * 500, which a caller (anonymous too) could take for a fault. It is answered 404 with a problem
 * document instead; errors forwarded to the page are not touched. Thread-safe.
 */
class DirectErrorPageRequest extends OncePerRequestFilter {

  private final String errorPath;

  DirectErrorPageRequest(String errorPath) {
    this.errorPath = errorPath;
  }

  @Override
  protected boolean shouldNotFilter(HttpServletRequest request) {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    return !path.equals(errorPath) && !path.startsWith(errorPath + "/") && !path.startsWith(errorPath + ";");
  }

  @Override
  protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws ServletException, IOException {
    response.setStatus(HttpStatus.NOT_FOUND.value());
    response.setContentType(ApiErrors.CONTENT_TYPE);
    response.setCharacterEncoding("UTF-8");
    response.getWriter().write(ApiErrors.problem(HttpStatus.NOT_FOUND, errorPath + " shows the error of a request that failed; called by itself it has none to show"));
  }
}
