package dev.agentloop.internal.tool.mcp;

import io.modelcontextprotocol.client.transport.HttpClientSseClientTransport;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.spec.McpClientTransport;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/** Makes the SDK's transport for a server's settings; a new one for every connection. */
final class McpTransports {

  private McpTransports() {}

  /** @param stdout what reads a stdio server's standard output, for any other transport unused */
  static McpClientTransport create(McpServerSettings settings, StdoutLines stdout) {
    return switch (settings.transport()) {
      case STDIO -> stdio(settings, stdout);
      case STREAMABLE_HTTP -> {
        URI uri = URI.create(settings.url());
        yield HttpClientStreamableHttpTransport.builder(base(uri)).endpoint(endpoint(uri))
            .connectTimeout(settings.startupTimeout())
            .httpRequestCustomizer(headers(settings.headers())).build();
      }
      case SSE -> {
        URI uri = URI.create(settings.url());
        yield HttpClientSseClientTransport.builder(base(uri)).sseEndpoint(endpoint(uri))
            .connectTimeout(settings.startupTimeout())
            .httpRequestCustomizer(headers(settings.headers())).build();
      }
    };
  }

  private static McpClientTransport stdio(McpServerSettings settings, StdoutLines stdout) {
    ServerParameters parameters = ServerParameters.builder(settings.command()).args(settings.args())
        .env(settings.env()).build();
    File directory = settings.workingDirectory() == null || settings.workingDirectory().isBlank() ? null
        : new File(settings.workingDirectory());
    return new StdioClientTransport(parameters, stdout) {
      @Override
      protected ProcessBuilder getProcessBuilder() {
        ProcessBuilder builder = new ProcessBuilder().directory(directory);
        // the SDK adds PATH, HOME and the like, and the configured env; nothing else of ours (API keys)
        builder.environment().clear();
        return builder;
      }
    };
  }

  /**
   * Whether the server's url answers a GET with an event stream, as a server of the older HTTP+SSE
   * transport does: what a streamable HTTP client configured for it sees as a 404 or 405 to its POST.
   */
  static boolean servesSse(McpServerSettings settings) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(settings.url())).timeout(Duration.ofSeconds(5))
        .header("Accept", "text/event-stream").GET();
    settings.headers().forEach(request::setHeader);
    try {
      HttpResponse<InputStream> response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
      response.body().close(); // an event stream does not end: the headers tell enough
      return response.statusCode() == 200 && response.headers().firstValue("Content-Type")
          .filter(type -> type.startsWith("text/event-stream")).isPresent();
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static McpSyncHttpClientRequestCustomizer headers(Map<String, String> headers) {
    return (request, method, uri, body, context) -> headers.forEach(request::setHeader);
  }

  private static String base(URI uri) {
    return uri.getScheme() + "://" + uri.getRawAuthority();
  }

  private static String endpoint(URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    return uri.getRawQuery() == null ? path : path + "?" + uri.getRawQuery();
  }
}
