package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * The docs tell analysts that the demo deploys every diagram saved in {@code processes/} at its start:
 * each diagram there is deployed (the demo's build copies them onto its class path; react-agent comes
 * with the library).
 */
@AgentLoopTest
class ProcessesFolderDeployedTest {

  private static final Pattern PROCESS_ID = Pattern.compile("<bpmn:process id=\"([^\"]+)\"");

  @Autowired ProcessEngine engine;

  @Test
  void should_deploy_every_diagram_of_the_processes_folder() throws IOException {
    List<String> keys;
    try (Stream<Path> diagrams = Files.list(Path.of("processes"))) {
      keys = diagrams.filter(path -> path.toString().endsWith(".bpmn")).map(ProcessesFolderDeployedTest::processId)
          .toList();
    }

    assertThat(keys).contains("react-agent", "support-triage-agent");
    assertThat(keys).allSatisfy(key -> assertThat(engine.getRepositoryService().createProcessDefinitionQuery()
        .processDefinitionKey(key).count()).as(key).isPositive());
  }

  private static String processId(Path diagram) {
    try {
      Matcher id = PROCESS_ID.matcher(Files.readString(diagram));
      assertThat(id.find()).as(diagram.toString()).isTrue();
      return id.group(1);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
