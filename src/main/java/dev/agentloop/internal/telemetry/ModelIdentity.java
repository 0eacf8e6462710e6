package dev.agentloop.internal.telemetry;

import java.net.URI;

/**
 * Which model a run's calls go to, as its spans name it: the provider ({@code gen_ai.provider.name}), the model
 * asked for ({@code gen_ai.request.model}) and the endpoint's host and port ({@code server.address},
 * {@code server.port}) where the endpoint is a URL. On the {@code chat} spans and the runs' {@code invoke_agent}.
 *
 * @param host {@code null} where the endpoint is no URL (the scripted model, an application's own)
 * @param port -1 where unknown
 */
record ModelIdentity(String provider, String model, String host, int port) {

  /** No model is known (the host has none traced). */
  static final ModelIdentity NONE = new ModelIdentity(null, null, null, -1);

  /**
   * From a model's endpoint, {@code <provider>:<url or name>} ({@link dev.agentloop.spi.ChatModel#endpoint()}).
   *
   * @param model the model asked for, {@code null}: the endpoint
   */
  static ModelIdentity of(String endpoint, String model) {
    int colon = endpoint.indexOf(':');
    String provider = colon < 0 ? endpoint : endpoint.substring(0, colon);
    String rest = colon < 0 ? "" : endpoint.substring(colon + 1);
    String host = null;
    int port = -1;
    if (rest.startsWith("http://") || rest.startsWith("https://")) {
      try {
        URI uri = URI.create(rest);
        host = uri.getHost();
        port = uri.getPort() >= 0 ? uri.getPort() : rest.startsWith("https") ? 443 : 80;
      } catch (IllegalArgumentException e) {
        host = null; // no URL after all: the span goes without an address
      }
    }
    return new ModelIdentity(provider, model == null ? endpoint : model, host, port);
  }

  /** Tags a span with what is known. */
  TraceSpan tag(TraceSpan span) {
    if (provider != null) {
      span.tag(GenAi.PROVIDER_NAME, provider);
    }
    if (model != null) {
      span.tag(GenAi.REQUEST_MODEL, model);
    }
    if (host != null) {
      span.tag(GenAi.SERVER_ADDRESS, host).tag(GenAi.SERVER_PORT, port);
    }
    return span;
  }
}
