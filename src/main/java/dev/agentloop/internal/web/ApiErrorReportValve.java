package dev.agentloop.internal.web;

import dev.agentloop.internal.security.ApiSettings;
import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.apache.coyote.http11.AbstractHttp11Protocol;
import org.springframework.http.HttpStatus;

/**
 * Tomcat's error report for requests it refuses before any servlet sees them, e.g. a path with a
 * malformed escape ({@code /api/runs/%zz}) or an encoded slash ({@code /api/runs%2f}): a problem document for
 * AgentLoop's API, Tomcat's own
 * HTML page for every other path. Installed as the host's error report valve.
 */
public class ApiErrorReportValve extends ErrorReportValve {

  /** Tomcat's and Spring Boot's default of {@code server.max-http-request-header-size}: 8 KB. */
  private static final int DEFAULT_HEADER_LIMIT = 8 * 1024;

  /** {@code null}: Tomcat made this valve itself (it never does while ours is in the pipeline), so report as Tomcat. */
  private final ApiSettings api;

  public ApiErrorReportValve() {
    this(null);
  }

  ApiErrorReportValve(ApiSettings api) {
    this.api = api;
  }

  /**
   * A request whose request line Tomcat could not read (longer than the header limit) has no path to tell
   * whose it is; it gets the problem document too, which says the limit, rather than Tomcat's HTML page.
   */
  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    String uri = request.getRequestURI();
    boolean unread = uri == null || uri.isEmpty();
    if (api == null || (!unread && !ApiErrors.isApi(api, request.getContextPath(), withSlashesDecoded(uri)))
        || response.getStatus() < 400 || response.isCommitted()) {
      super.report(request, response, throwable);
      return;
    }
    try {
      response.setContentType(ApiErrors.CONTENT_TYPE);
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(isHeaderTooLarge(throwable)
            ? ApiErrors.problem(HttpStatus.BAD_REQUEST, "the request line and headers may have at most "
                + headerLimit(request) + " bytes together (server.max-http-request-header-size)")
            : ApiErrors.problem(response.getStatus(), request.getMethod(), uri, request.getContextPath(),
                api.basePath()));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException e) {
      // the client is gone or the response was taken over; Tomcat's own report would fail the same way
    }
  }

  /**
   * The path with its encoded slashes as slashes: Tomcat refuses {@code /api/runs%2f} before decoding it, so as sent it
   * would not look like a path of the API's, though it is meant as one.
   */
  private static String withSlashesDecoded(String uri) {
    return uri.replace("%2f", "/").replace("%2F", "/").replace("%5c", "/").replace("%5C", "/");
  }

  /** Tomcat's refusal of a request line or headers over its limit ("Request header is too large"). */
  private static boolean isHeaderTooLarge(Throwable throwable) {
    return throwable instanceof IllegalArgumentException && throwable.getMessage() != null
        && throwable.getMessage().contains("header is too large");
  }

  private static int headerLimit(Request request) {
    return request.getConnector() != null
        && request.getConnector().getProtocolHandler() instanceof AbstractHttp11Protocol<?> http
        ? http.getMaxHttpRequestHeaderSize() : DEFAULT_HEADER_LIMIT;
  }
}
