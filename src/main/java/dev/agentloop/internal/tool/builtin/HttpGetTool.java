package dev.agentloop.internal.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.spi.AgentTool;
import dev.agentloop.spi.ToolException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;

/**
 * Fetches a web page or API response by GET. Only hosts on the configured allow-list are reached,
 * redirects are reported rather than followed (they could leave the list), and at most
 * {@code maxBytes} of the body are read. The whole exchange lasts at most {@code timeout}: then, or
 * when the tool time-out interrupts it, the connection is closed.
 */
public class HttpGetTool implements AgentTool {

  private static final JsonNode PARAMETERS = Schemas.parse("""
      {"type": "object",
       "properties": {"url": {"type": "string", "maxLength": 2000, "description": "http(s) URL on an allowed host"}},
       "required": ["url"], "additionalProperties": false}
      """);

  private final Set<String> allowedHosts;
  private final int maxBytes;
  private final Duration timeout;
  private final HttpClient client;

  public HttpGetTool(List<String> allowedHosts, int maxBytes, Duration timeout) {
    this.allowedHosts = allowedHosts.stream().map(h -> h.toLowerCase(Locale.ROOT)).collect(Collectors.toSet());
    this.maxBytes = maxBytes;
    this.timeout = timeout;
    this.client = HttpClient.newBuilder()
        .connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NEVER)
        .build();
  }

  @Override
  public String name() {
    return "http_get";
  }

  @Override
  public String description() {
    return "Fetches a URL with HTTP GET and returns status, content type and the start of the body."
        + " Allowed hosts: " + (allowedHosts.isEmpty() ? "none" : String.join(", ", allowedHosts)) + ".";
  }

  @Override
  public JsonNode parameters() {
    return PARAMETERS;
  }

  /**
   * Waits for the whole exchange (headers and the first {@code maxBytes} of the body) at most
   * {@code timeout}. The time-out and an interrupt (the tool time-out) both cancel the exchange, which
   * closes its connection: a server that trickles its body neither holds this thread nor a socket.
   */
  @Override
  public String execute(JsonNode arguments) throws Exception {
    URI uri = allowedUri(arguments.get("url").asText());
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
    CompletableFuture<HttpResponse<FirstBytes.Body>> exchange =
        client.sendAsync(request, info -> new FirstBytes(maxBytes));
    HttpResponse<FirstBytes.Body> response;
    try {
      response = exchange.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw new ToolException("GET " + uri + " did not finish within " + timeout.toMillis() + " ms; the connection"
          + " was closed");
    } catch (InterruptedException e) {
      exchange.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      throw e.getCause() instanceof Exception cause ? cause : e;
    }
    FirstBytes.Body body = response.body();
    String location = response.headers().firstValue("Location").map(l -> "\nlocation: " + l).orElse("");
    return "status: " + response.statusCode()
        + "\ncontent-type: " + response.headers().firstValue("Content-Type").orElse("unknown")
        + location
        + "\n\n" + new String(body.bytes(), StandardCharsets.UTF_8)
        + (body.cut() ? "\n[cut after " + maxBytes + " bytes]" : "");
  }

  private URI allowedUri(String url) throws ToolException {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new ToolException("'" + url + "' is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new ToolException("only http and https URLs are allowed");
    }
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    if (!allowedHosts.contains(host)) {
      throw new ToolException("host '" + host + "' is not on the allow-list"
          + (allowedHosts.isEmpty() ? " (the list is empty)" : ": " + String.join(", ", allowedHosts)));
    }
    return uri;
  }
}
