package dev.agentloop.tool.builtin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.tool.AgentTool;
import dev.agentloop.tool.ToolException;
import java.io.IOException;
import java.io.InputStream;
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
import java.util.stream.Collectors;

/**
 * Fetches a web page or API response by GET. Only hosts on the configured allow-list are reached,
 * redirects are reported rather than followed (they could leave the list), and at most
 * {@code maxBytes} of the body are read.
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

  @Override
  public String execute(JsonNode arguments) throws Exception {
    URI uri = allowedUri(arguments.get("url").asText());
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
    HttpResponse<InputStream> response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    try (InputStream body = response.body()) {
      byte[] bytes = body.readNBytes(maxBytes);
      boolean cut = body.read() != -1;
      String location = response.headers().firstValue("Location").map(l -> "\nlocation: " + l).orElse("");
      return "status: " + response.statusCode()
          + "\ncontent-type: " + response.headers().firstValue("Content-Type").orElse("unknown")
          + location
          + "\n\n" + new String(bytes, StandardCharsets.UTF_8)
          + (cut ? "\n[cut after " + maxBytes + " bytes]" : "");
    } catch (IOException e) {
      throw new ToolException("reading " + uri + " failed: " + e.getMessage());
    }
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
