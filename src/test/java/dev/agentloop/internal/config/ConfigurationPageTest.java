package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/configuration.md} lists every {@code agentloop.*} key as the configuration metadata in AgentLoop's
 * jar describes it, so the page cannot drift from the settings records: a key added, removed, or given another
 * default or description fails here until the page is regenerated.
 */
class ConfigurationPageTest {

  /** The page (the tests run in the repository's root). */
  static final Path PAGE = Path.of("docs/configuration.md");
  private static final String REGENERATE = "mvn -B -pl modules/agentloop -am -Dagentloop.modeler-checks.skip"
      + " -Dsurefire.failIfNoSpecifiedTests=false -Dtest=ConfigurationPageTest"
      + " -Dagentloop.configuration-page.write=true test";

  @Test
  void should_list_every_key_of_the_metadata_as_the_page_shows_it() throws Exception {
    JsonNode metadata = metadata();
    String page = Files.readString(PAGE);
    String generated = ConfigurationPage.replaced(page, ConfigurationPage.keys(metadata));

    if (Boolean.getBoolean("agentloop.configuration-page.write")) {
      Files.writeString(PAGE, generated);
    } else if (!generated.equals(page)) {
      Path fresh = Path.of("target/configuration.md");
      Files.writeString(fresh, generated);
      fail(PAGE + " does not list the keys as the configuration metadata describes them (the page as it should be"
          + " is in " + fresh + "): regenerate it with\n  " + REGENERATE + "\nand commit it");
    }
    metadata.get("properties").forEach(property ->
        assertThat(generated).contains("| `" + property.get("name").asText() + "` |"));
  }

  @Test
  void should_show_types_defaults_and_javadoc_as_markdown() throws Exception {
    JsonNode metadata = new ObjectMapper().readTree("""
        {"properties": [
          {"name": "agentloop.enabled", "type": "java.lang.Boolean", "defaultValue": true,
           "description": "whether it is on; {@code false}: nothing | at all"},
          {"name": "agentloop.agent.when-plan-revisions-run-out", "type": "dev.agentloop.internal.agent.definition.RevisionsRunOut",
           "defaultValue": "accept", "description": "what then"},
          {"name": "agentloop.tools.remote", "type": "java.util.Map<java.lang.String,dev.agentloop.internal.config.ToolSettings$Remote>",
           "description": "tools of remote workers,\\n by name"},
          {"name": "agentloop.llm.api-key", "type": "java.lang.String", "description": "the {@link dev.agentloop.spi.ChatModel} key"}]}""");

    String keys = ConfigurationPage.keys(metadata);

    assertThat(keys).contains("### `agentloop`\n", "### `agentloop.agent`\n", "### `agentloop.tools`\n")
        .contains("| `agentloop.enabled` | boolean | `true` | whether it is on; `false`: nothing \\| at all |")
        .contains("| `agentloop.agent.when-plan-revisions-run-out` | `accept` \\| `reject` | `accept` | what then |")
        .contains("| `agentloop.tools.remote` | map: name → Remote | none | tools of remote workers, by name |")
        .contains("| `agentloop.llm.api-key` | text | none | the `ChatModel` key |");
  }

  @Test
  void should_refuse_a_page_without_its_markers_rather_than_lose_its_prose() {
    assertThatThrownBy(() -> ConfigurationPage.replaced("# Configuration\n\nprose only\n", "| keys |"))
        .hasMessageContaining(ConfigurationPage.BEGIN);
    assertThatThrownBy(() -> ConfigurationPage.replaced(ConfigurationPage.END + "\n" + ConfigurationPage.BEGIN, ""))
        .isInstanceOf(IllegalStateException.class);
    assertThat(ConfigurationPage.replaced("prose\n" + ConfigurationPage.BEGIN + "\nold\n" + ConfigurationPage.END
        + "\nmore prose\n", "new\n"))
        .isEqualTo("prose\n" + ConfigurationPage.BEGIN + "\nnew\n" + ConfigurationPage.END + "\nmore prose\n");
  }

  /** The metadata the configuration processor wrote into AgentLoop's own jar (or classes folder). */
  private static JsonNode metadata() throws Exception {
    String library = AgentLoopProperties.class.getProtectionDomain().getCodeSource().getLocation().toString();
    for (URL url : Collections.list(ConfigurationPageTest.class.getClassLoader()
        .getResources("META-INF/spring-configuration-metadata.json"))) {
      if (url.toString().contains(library)) {
        try (InputStream in = url.openStream()) {
          return new ObjectMapper().readTree(in);
        }
      }
    }
    throw new AssertionError("no configuration metadata in " + library);
  }
}
