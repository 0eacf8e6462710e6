package dev.agentloop.internal.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.Runs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A stdio server's process: started once when the servers start, and stopped when they close. */
class McpServersLifecycleTest {

  @Test
  void should_start_a_stdio_server_once_and_stop_it_on_close() throws Exception {
    // given a folder only this test serves, so that its server process can be told from others
    Path folder = Files.createTempDirectory("agentloop-mcp-lifecycle").toRealPath();
    String marker = NpmMcpServers.filesystem() + " " + folder;
    McpServerSettings settings = McpServerSettings.stdio(NpmMcpServers.node(),
        List.of(NpmMcpServers.filesystem(), folder.toString()));

    // when
    McpServers servers = McpServers.start(Map.of("files", settings), Duration.ofSeconds(10));
    try {
      // then it connects in the background, one process serves it, and its tools are listed
      await().atMost(Runs.PATIENCE).until(() -> servers.connected("files").orElseThrow());
      assertThat(NpmMcpServers.processes(marker)).hasSize(1);
      assertThat(servers.sources()).singleElement().satisfies(source ->
          assertThat(source.tools()).containsKey("files__list_directory"));
    } finally {
      servers.close();
    }

    // and closing stops it
    await().atMost(Runs.PATIENCE).until(() -> NpmMcpServers.processes(marker).isEmpty());
    assertThat(servers.connected("files")).hasValue(false);
  }
}
