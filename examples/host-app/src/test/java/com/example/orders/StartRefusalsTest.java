package com.example.orders;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/** Settings that stop the host's start, each with a message that says what to do, before anything is deployed. */
class StartRefusalsTest {

  @Test
  void should_refuse_an_unknown_agentloop_key_naming_it_and_the_closest_known_one() {
    assertThatThrownBy(() -> run("unknown-key", "--agentloop.agent.allowed-tool=x"))
        .hasMessageContaining("'agentloop.agent.allowed-tool' (set in ")
        .hasMessageContaining("is not a setting of AgentLoop; did you mean 'agentloop.agent.allowed-tools'?");
  }

  @Test
  void should_refuse_to_start_without_a_model_saying_how_to_choose_one() {
    // the start's own failure, before any bean is made: not the end of a chain of beans
    assertThatThrownBy(() -> run("no-model", "--agentloop.llm.provider=")).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("agentloop.llm.provider is not set: AgentLoop has no default model")
        .hasMessageContaining("agentloop.llm.provider=openai");
  }

  @Test
  void should_start_with_the_same_key_misspelt_when_agentloop_is_switched_off() {
    // off means off: AgentLoop checks nothing of a configuration it does not use
    run("off-with-typo", "--agentloop.enabled=false", "--agentloop.agent.allowed-tool=x").close();
  }

  /** The host started as from its command line, whose arguments win over its application.properties. */
  private static ConfigurableApplicationContext run(String database, String... arguments) {
    return new SpringApplicationBuilder(OrderApplication.class)
        .properties("spring.datasource.url=jdbc:h2:mem:refusal-" + database + ";DB_CLOSE_DELAY=-1", "server.port=0")
        .run(arguments);
  }
}
