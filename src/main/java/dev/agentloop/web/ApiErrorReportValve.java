package dev.agentloop.web;

import dev.agentloop.security.ApiSettings;
import java.io.IOException;
import java.io.Writer;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;

/**
 * Tomcat's error report for requests it refuses before any servlet sees them, e.g. a path with a
 * malformed escape ({@code /api/runs/%zz}): a problem document for AgentLoop's API, Tomcat's own
 * HTML page for every other path. Installed as the host's error report valve.
 */
public class ApiErrorReportValve extends ErrorReportValve {

  /** {@code null}: Tomcat made this valve itself (it never does while ours is in the pipeline), so report as Tomcat. */
  private final ApiSettings api;

  public ApiErrorReportValve() {
    this(null);
  }

  ApiErrorReportValve(ApiSettings api) {
    this.api = api;
  }

  @Override
  protected void report(Request request, Response response, Throwable throwable) {
    if (api == null || !ApiErrors.isApi(api, request.getContextPath(), request.getRequestURI()) || response.getStatus() < 400 || response.isCommitted()) {
      super.report(request, response, throwable);
      return;
    }
    try {
      response.setContentType(ApiErrors.CONTENT_TYPE);
      response.setCharacterEncoding("UTF-8");
      Writer writer = response.getReporter();
      if (writer != null) {
        writer.write(ApiErrors.problem(response.getStatus(), request.getMethod(), request.getRequestURI(),
            api.basePath()));
        response.finishResponse();
      }
    } catch (IOException | IllegalStateException e) {
      // the client is gone or the response was taken over; Tomcat's own report would fail the same way
    }
  }
}
