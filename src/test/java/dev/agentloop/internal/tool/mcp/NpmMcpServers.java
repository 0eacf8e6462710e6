package dev.agentloop.internal.tool.mcp;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The third-party MCP servers the MCP tests talk to, from the npm registry at the versions pinned in
 * {@code src/test/mcp/package-lock.json}, installed with {@code npm ci} on first use. Without node
 * and npm the calling test is skipped with the reason printed, except in CI
 * ({@code AGENTLOOP_CI=true}), where it fails: there they must run.
 */
final class NpmMcpServers {

  static final Path FOLDER = Path.of("src/test/mcp").toAbsolutePath();
  private static final Path MODULES = FOLDER.resolve("node_modules/@modelcontextprotocol");

  private NpmMcpServers() {}

  /** The node program; installs the servers first when they are not (or no longer) what the lock file says. */
  static synchronized String node() {
    Optional<Path> node = executable("node");
    Optional<Path> npm = executable("npm");
    if (node.isEmpty() || npm.isEmpty()) {
      String reason = "MCP tests need node and npm (Debian packages nodejs and npm) to run the MCP servers";
      if (Boolean.parseBoolean(System.getenv("AGENTLOOP_CI"))) {
        Assertions.fail(reason + ", and in CI they must run");
      }
      System.err.println("SKIPPED: " + reason);
      Assumptions.abort(reason);
    }
    install(npm.get());
    return node.get().toString();
  }

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

  static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The processes of this JVM whose command line contains the text, e.g. the stdio servers it started. */
  static List<ProcessHandle> processes(String commandLineContains) {
    return ProcessHandle.current().descendants()
        .filter(process -> process.info().commandLine().orElse("").contains(commandLineContains)).toList();
  }

  private static boolean listening(int port) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static void install(Path npm) {
    Path installed = FOLDER.resolve("node_modules/.package-lock.json");
    try {
      // npm ci writes node_modules/.package-lock.json: newer than the lock file means installed from it
      if (Files.exists(installed) && Files.getLastModifiedTime(installed)
          .compareTo(Files.getLastModifiedTime(FOLDER.resolve("package-lock.json"))) >= 0) {
        return;
      }
    } catch (IOException e) {
      // install again
    }
    try {
      Process process = new ProcessBuilder(npm.toString(), "ci", "--no-audit", "--no-fund").directory(FOLDER.toFile())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IllegalStateException("npm ci in " + FOLDER + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("npm ci in " + FOLDER + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Optional<Path> executable(String name) {
    return Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
        .map(dir -> Path.of(dir, name)).filter(Files::isExecutable).findFirst();
  }
}
