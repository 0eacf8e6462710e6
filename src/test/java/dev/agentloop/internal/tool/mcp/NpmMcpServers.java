package dev.agentloop.internal.tool.mcp;

import dev.agentloop.NpmFolder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The third-party MCP servers the MCP tests talk to, from the npm registry at the versions pinned in
 * {@code src/test/mcp/package-lock.json}, installed with {@code npm ci} on first use. Without node
 * and npm the calling test is skipped with the reason printed, except in CI
 * ({@code AGENTLOOP_CI=true}), where it fails: there they must run.
 */
final class NpmMcpServers {

  private static final NpmFolder NPM = new NpmFolder(Path.of("src/test/mcp"), "MCP tests need node and npm (Debian packages nodejs and npm) to run the MCP servers");
  static final Path FOLDER = NPM.path();
  private static final Path MODULES = FOLDER.resolve("node_modules/@modelcontextprotocol");

  private NpmMcpServers() {}


  static String everything() {
    return MODULES.resolve("server-everything/dist/index.js").toString();
  }

  static String filesystem() {
    return MODULES.resolve("server-filesystem/dist/index.js").toString();
  }

  /** server-everything over streamable HTTP on the port, its endpoint {@code /mcp}; returns once it listens. */
  static Process startEverythingHttp(int port) {
    return startEverything("streamableHttp", port);
  }

  /** server-everything over the older HTTP+SSE transport on the port, its endpoint {@code /sse}. */
  static Process startEverythingSse(int port) {
    return startEverything("sse", port);
  }

  private static Process startEverything(String transport, int port) {
    try {
      ProcessBuilder builder = new ProcessBuilder(node(), everything(), transport)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      builder.environment().put("PORT", String.valueOf(port));
      Process process = builder.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!listening(port)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.destroyForcibly();
          throw new IllegalStateException("server-everything did not listen on port " + port);
        }
        process.waitFor(50, TimeUnit.MILLISECONDS);
      }
      return process;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }


  /** The processes of this JVM whose command line contains the text, e.g. the stdio servers it started. */
  static List<ProcessHandle> processes(String commandLineContains) {
    return ProcessHandle.current().descendants()
        .filter(process -> process.info().commandLine().orElse("").contains(commandLineContains)).toList();
  }




  /** The node program, with the folder's packages installed (see {@link NpmFolder}). */
  static String node() {
    return NPM.node();
  }

  static int freePort() {
    return NpmFolder.freePort();
  }

  private static boolean listening(int port) {
    return NpmFolder.listening(port);
  }
}
