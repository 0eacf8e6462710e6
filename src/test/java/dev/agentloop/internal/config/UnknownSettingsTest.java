package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

/** Which {@code agentloop.*} keys stop the start, and what the refusal says. */
class UnknownSettingsTest {

  private final UnknownSettings check = new UnknownSettings(KnownSettings.of(AgentLoopProperties.class));

  @Test
  void should_refuse_a_misspelt_key_naming_it_its_source_and_the_closest_known_key() {
    StandardEnvironment environment = environment(Map.of("agentloop.agent.allowed-tool", "x"));

    assertThatThrownBy(() -> check.check(environment))
        .isInstanceOf(UnknownSettings.UnknownSettingException.class)
        .hasMessageContaining("'agentloop.agent.allowed-tool' (set in application) is not a setting of AgentLoop;"
            + " did you mean 'agentloop.agent.allowed-tools'?");
  }

  @Test
  void should_accept_every_key_of_the_shipped_defaults_and_relaxed_spellings_map_keys_and_list_indexes() throws Exception {
    StandardEnvironment environment = environment(Map.of(
        "agentloop.agent.maxSteps", "3",
        "agentloop.agent.allowed-tools[1]", "order_status",
        "agentloop.tools.approval.send_email", "true",
        "agentloop.tools.remote.crm_lookup.side-effects", "true",
        "agentloop.tools.mcp.files.env.HOME", "/tmp",
        "agentloop.resilience.tool-breakers.http_get.failure-threshold", "3",
        "other.agentloop.x", "not ours"));
    new YamlPropertySourceLoader().load("agentloop-defaults", new ClassPathResource(AgentLoopDefaults.RESOURCE))
        .forEach(environment.getPropertySources()::addLast);

    assertThatCode(() -> check.check(environment)).doesNotThrowAnyException();
  }

  @Test
  void should_refuse_an_unknown_key_below_a_map_of_records() {
    StandardEnvironment environment = environment(Map.of("agentloop.tools.remote.crm_lookup.descripton", "x"));

    assertThatThrownBy(() -> check.check(environment))
        .hasMessageContaining("did you mean 'agentloop.tools.remote.<name>.description'?");
  }

  @Test
  void should_take_a_map_key_in_brackets_as_one_name_dots_and_all_and_still_check_what_is_below_it() {
    StandardEnvironment priced = environment(Map.of("agentloop.llm.prices[gpt-4.1-mini].input", "0.4",
        "agentloop.llm.prices[gpt-4.1-mini].cached-input", "0.1", "agentloop.llm.prices.gpt-4o.output", "10"));
    StandardEnvironment misspelt = environment(Map.of("agentloop.llm.prices[gpt-4.1].cached-inptu", "0.1"));

    assertThatCode(() -> check.check(priced)).doesNotThrowAnyException();
    assertThatThrownBy(() -> check.check(misspelt))
        .hasMessageContaining("did you mean 'agentloop.llm.prices.<name>.cached-input'?");
  }

  @Test
  void should_check_environment_variables_too() {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("systemEnvironment",
        Map.of("AGENTLOOP_AGENT_MAX_STEPS", "3", "AGENTLOOP_TOOLS_APPROVAL_SEND_EMAIL", "true", "PATH", "/bin",
            // not meant for a section of AgentLoop's: read by the application's own placeholders, or by tests
            "AGENTLOOP_DB_URL", "jdbc:postgresql://db/agentloop", "AGENTLOOP_CI", "true", "AGENTLOOP_ENABLED", "true")));
    assertThatCode(() -> check.check(environment)).doesNotThrowAnyException();

    environment.getPropertySources().addFirst(new SystemEnvironmentPropertySource("variables",
        Map.of("AGENTLOOP_LLM_PROVIDR", "openai")));
    assertThatThrownBy(() -> check.check(environment)).hasMessageContaining("'AGENTLOOP_LLM_PROVIDR' (set in variables)")
        .hasMessageContaining("did you mean 'agentloop.llm.provider'?");
  }

  @Test
  void should_measure_the_edit_distance() {
    assertThat(KnownSettings.distance("allowed-tool", "allowed-tools")).isEqualTo(1);
    assertThat(KnownSettings.distance("kitten", "sitting")).isEqualTo(3);
    assertThat(KnownSettings.distance("", "abc")).isEqualTo(3);
  }

  private static StandardEnvironment environment(Map<String, Object> properties) {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().addFirst(new MapPropertySource("application", properties));
    return environment;
  }
}
