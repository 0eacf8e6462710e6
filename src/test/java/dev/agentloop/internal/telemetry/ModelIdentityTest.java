package dev.agentloop.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.spi.ModelCallException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** What a model call's span says of its server and of a failure, from what the adapter tells. */
class ModelIdentityTest {

  @Test
  void should_take_provider_host_and_port_from_the_endpoint() {
    assertThat(ModelIdentity.of("openai:https://api.example.com/v1", "gpt-4o-mini"))
        .isEqualTo(new ModelIdentity("openai", "gpt-4o-mini", "api.example.com", 443));
    assertThat(ModelIdentity.of("openai:http://localhost:11434/v1", null))
        .isEqualTo(new ModelIdentity("openai", "openai:http://localhost:11434/v1", "localhost", 11434));
    assertThat(ModelIdentity.of("anthropic:https://api.anthropic.com/v1/", "claude"))
        .extracting(ModelIdentity::host, ModelIdentity::port).containsExactly("api.anthropic.com", 443);
  }

  @Test
  void should_name_no_server_for_an_endpoint_that_is_no_url() {
    assertThat(ModelIdentity.of("scripted", null)).isEqualTo(new ModelIdentity("scripted", "scripted", null, -1));
    assertThat(ModelIdentity.of("langchain4j:com.example.HostModel", null).host()).isNull();
    assertThat(ModelIdentity.of("openai:https://bad host/v1", "m").host()).isNull();
  }

  @Test
  void should_type_an_error_by_status_then_time_out_then_class() {
    assertThat(ErrorTypes.of(new CompletionException(new ModelCallException("slow down", true, 429, null))))
        .isEqualTo("429");
    assertThat(ErrorTypes.of(new ModelCallException("timed out", true, 0, new HttpTimeoutException("t"))))
        .isEqualTo("timeout");
    assertThat(ErrorTypes.of(new IllegalStateException("odd"))).isEqualTo("java.lang.IllegalStateException");
  }
}
