package dev.agentloop.internal.web;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.security.ApiSettings;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;

/**
 * Problem documents for errors that no controller of the API raised: the servlet container's and
 * Spring MVC's own (see {@link ApiErrorDispatch} and {@link ApiErrorReportValve}), in the shape and
 * tone of {@link ApiProblems}.
 */
final class ApiErrors {

  static final String CONTENT_TYPE = "application/problem+json";

  private static final ObjectMapper JSON = new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

  private ApiErrors() {}

  /**
   * Whether the request went to one of AgentLoop's resources; the application's own paths, under the
   * same base path or elsewhere, keep their own error pages.
   *
   * @param contextPath the servlet context's path, {@code null} where the request reached none
   */
  static boolean isApi(ApiSettings api, String contextPath, String uri) {
    if (uri == null) {
      return false;
    }
    boolean inContext = contextPath != null && !contextPath.isEmpty() && uri.startsWith(contextPath);
    return api.covers(inContext ? uri.substring(contextPath.length()) : uri);
  }

  /**
   * The problem document, as JSON text.
   *
   * @param uri the request's whole path, the servlet context's included
   * @param basePath where AgentLoop's API is in the servlet context; with {@code contextPath} where a client finds it
   */
  static String problem(int code, String method, String uri, String contextPath, String basePath) {
    return problem(code, method, uri, (contextPath == null ? "" : contextPath) + basePath);
  }

  private static String problem(int code, String method, String uri, String basePath) {
    HttpStatus status = HttpStatus.resolve(code);
    status = status == null ? HttpStatus.INTERNAL_SERVER_ERROR : status;
    return problem(status, detail(status, method, uri, basePath));
  }

  /** The problem document with this detail, as JSON text. */
  static String problem(HttpStatus status, String detail) {
    ProblemDetail problem = ApiProblems.problem(status, status.getReasonPhrase(), detail);
    try {
      return JSON.writeValueAsString(problem);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a problem document is always JSON", e);
    }
  }

  /** "/shop/api/runs, /shop/api/breakers and /shop/api/openapi.json": every resource, as a client calls it. */
  private static String resources(String basePath) {
    List<String> paths = ApiSettings.RESOURCES.stream().map(resource -> basePath + "/" + resource).toList();
    return String.join(", ", paths.subList(0, paths.size() - 1)) + " and " + paths.get(paths.size() - 1);
  }

  private static String detail(HttpStatus status, String method, String uri, String basePath) {
    return switch (status) {
      case NOT_FOUND -> "AgentLoop's API has nothing at " + uri + "; its resources are " + resources(basePath);
      case METHOD_NOT_ALLOWED -> uri + " does not take " + method;
      case UNSUPPORTED_MEDIA_TYPE -> "send the body as JSON, with the header Content-Type: application/json";
      case NOT_ACCEPTABLE -> "the API answers in JSON: accept application/json";
      case BAD_REQUEST -> "the request could not be read (a malformed path, header or body)";
      default -> status.value() + " " + status.getReasonPhrase();
    };
  }
}
