package dev.agentloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Camunda's REST API and webapps find an engine by its name in a JVM-wide registry: a second Spring context whose
 * engine is also called "default" takes that name over, and the shared test context's {@code /engine-rest} then
 * serves the other context's database (tasks "not found", seen only in some orders of the test classes). So every
 * test class that gets a context of its own names its engine.
 */
class EngineNamesTest {

  /** What makes a test class's context differ from the shared one of {@link AgentLoopTest}. */
  private static final Pattern OWN_CONTEXT = Pattern.compile("^@(SpringBootTest|Import|TestPropertySource|"
      + "MockitoBean|DirtiesContext|ContextConfiguration)\\b|@DynamicPropertySource|@TestConfiguration", Pattern.MULTILINE);

  @Test
  void every_test_class_with_a_context_of_its_own_names_its_engine() throws IOException {
    List<String> unnamed;
    try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
      unnamed = files.filter(file -> file.toString().endsWith("Test.java")).filter(EngineNamesTest::ownContext)
          .filter(file -> !read(file).contains("process-engine-name")).map(Path::toString).toList();
    }
    assertThat(unnamed).as("test classes whose Spring context's engine takes the name 'default'").isEmpty();
  }

  private static boolean ownContext(Path file) {
    String source = read(file);
    // (the shared context's own annotation is no test class)
    boolean springTest = (source.contains("@SpringBootTest") || source.contains("\n@AgentLoopTest"))
        && !source.contains("public @interface");
    return springTest && OWN_CONTEXT.matcher(source).find();
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
