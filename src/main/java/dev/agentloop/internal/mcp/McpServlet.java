package dev.agentloop.internal.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import org.camunda.bpm.engine.IdentityService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MCP endpoint: the SDK's streamable HTTP servlet, with what the SDK does not do. It reads each posted JSON-RPC
 * message once, bounded; keeps a {@code tools/call}'s id for the call ({@link McpCaller#REQUEST_ID}), and serves
 * {@code notifications/cancelled} itself: the named call's run is stopped ({@link McpCalls}). Everything else goes
 * to the SDK unchanged.
 */
final class McpServlet extends HttpServlet {

  private static final Logger LOG = LoggerFactory.getLogger(McpServlet.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  static final String SESSION_HEADER = "Mcp-Session-Id";

  private final transient HttpServlet sdk;
  private final transient McpCalls calls;
  private final transient IdentityService identity;
  private final int maxRequestBytes;

  McpServlet(HttpServlet sdk, McpCalls calls, IdentityService identity, int maxRequestBytes) {
    this.sdk = sdk;
    this.calls = calls;
    this.identity = identity;
    this.maxRequestBytes = maxRequestBytes;
  }

  @Override
  public void init(ServletConfig config) throws ServletException {
    super.init(config);
    sdk.init(config);
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws ServletException, IOException {
    if (!"POST".equals(request.getMethod())) {
      sdk.service(request, response);
      return;
    }
    byte[] body = request.getInputStream().readNBytes(maxRequestBytes + 1);
    if (body.length > maxRequestBytes) {
      response.sendError(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE, "an MCP message may have at most "
          + maxRequestBytes + " bytes (agentloop.mcp.max-request-bytes)");
      return;
    }
    JsonNode message = parse(body);
    String method = message.path("method").asText("");
    if (method.equals("notifications/cancelled")) {
      cancel(request, message.path("params"));
      response.setStatus(HttpServletResponse.SC_ACCEPTED);
      return;
    }
    if (method.equals("tools/call") && message.has("id")) {
      request.setAttribute(McpCaller.REQUEST_ID, requestId(message.get("id")));
    }
    sdk.service(new ReadAgain(request, body), response);
  }

  private void cancel(HttpServletRequest request, JsonNode params) {
    McpCaller caller = McpCaller.current(identity);
    JsonNode id = params.path("requestId");
    if (caller == null || id.isMissingNode() || id.isNull()) {
      return;
    }
    String reason = params.path("reason").asText("");
    if (calls.cancel(request.getHeader(SESSION_HEADER), requestId(id), caller.userId())) {
      LOG.info("MCP call {} of session {} cancelled by {}{}", id, request.getHeader(SESSION_HEADER), caller.userId(),
          reason.isBlank() ? "" : ": " + reason);
    }
  }

  /** A string id stays a string, a number a long: the key the call was kept under. */
  static Object requestId(JsonNode id) {
    return id.isNumber() ? (Object) id.asLong() : id.asText();
  }

  /** The message, or an empty object where it is no JSON object: the SDK answers that with its own error. */
  private static JsonNode parse(byte[] body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  /** The request with its body to be read again, by the SDK. */
  private static final class ReadAgain extends HttpServletRequestWrapper {

    private final byte[] body;

    ReadAgain(HttpServletRequest request, byte[] body) {
      super(request);
      this.body = body;
    }

    @Override
    public ServletInputStream getInputStream() {
      ByteArrayInputStream in = new ByteArrayInputStream(body);
      return new ServletInputStream() {
        @Override
        public int read() throws IOException {
          return in.read();
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
          return in.read(buffer, offset, length);
        }

        @Override
        public boolean isFinished() {
          return in.available() == 0;
        }

        @Override
        public boolean isReady() {
          return true;
        }

        @Override
        public void setReadListener(ReadListener listener) {
          throw new UnsupportedOperationException("the MCP message was read already");
        }
      };
    }

    @Override
    public BufferedReader getReader() {
      return new BufferedReader(new InputStreamReader(new ByteArrayInputStream(body), StandardCharsets.UTF_8));
    }
  }
}
