package dev.agentloop.internal.llm;

import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import java.time.Duration;

/**
 * The HTTP client builder an {@link AsyncWire} gives a LangChain4j model's builder: its client only captures the
 * requests the model writes ({@link ErrorKeepingHttpClient}), for the wire to send; its time-outs are the wire's,
 * whatever the model's builder asks.
 */
final class WireClientBuilder implements HttpClientBuilder {

  private final Duration timeout;

  WireClientBuilder(Duration timeout) {
    this.timeout = timeout;
  }

  @Override
  public Duration connectTimeout() {
    return timeout;
  }

  @Override
  public HttpClientBuilder connectTimeout(Duration ignored) {
    return this;
  }

  @Override
  public Duration readTimeout() {
    return timeout;
  }

  @Override
  public HttpClientBuilder readTimeout(Duration ignored) {
    return this;
  }

  @Override
  public HttpClient build() {
    return ErrorKeepingHttpClient.INSTANCE;
  }
}
