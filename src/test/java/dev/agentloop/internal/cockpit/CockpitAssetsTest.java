package dev.agentloop.internal.cockpit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Camunda serves only the plugin files {@link CockpitAssets} names, and one module that is not named
 * answers 404 to Cockpit's import: the plugin, and with it Cockpit's whole page, never loads.
 */
class CockpitAssetsTest {

  @Test
  void should_name_every_module_and_style_of_the_plugin() throws IOException {
    // the sources, as the plugin's node tests read them (tests run in the project's root)
    Path app = Path.of("src", "main", "resources", "plugin-webapp", "agentloop", "app");
    try (Stream<Path> files = Files.list(app)) {
      assertThat(files.map(file -> "app/" + file.getFileName())
              .filter(name -> name.endsWith(".js") || name.endsWith(".css")))
          .contains("app/plugin.js", "app/conversation-view.js")
          .isSubsetOf(CockpitAssets.MODULES);
    }
  }
}
