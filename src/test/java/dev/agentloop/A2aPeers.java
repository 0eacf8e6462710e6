package dev.agentloop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * The official A2A JavaScript SDK ({@code @a2a-js/sdk} from npm, at the version pinned in
 * {@code src/test/a2a/package-lock.json}, installed with {@code npm ci} on first use) as the A2A tests' peer: its
 * client against AgentLoop's A2A server ({@code client.mjs}), its server as a remote agent AgentLoop calls
 * ({@code server.mjs}). Without node and npm the calling test is skipped with the reason printed, except in CI
 * ({@code AGENTLOOP_CI=true}), where it fails: there they must run.
 */
public final class A2aPeers {

  static final Path FOLDER = Path.of("src/test/a2a").toAbsolutePath();
  private static final ObjectMapper JSON = new ObjectMapper();

  private A2aPeers() {}

  /** What the SDK's client printed for one call (see {@code client.mjs}): {@code task}, {@code message}, {@code error} … */
  public static JsonNode client(String agentUrl, String user, String... command) {
    List<String> line = new ArrayList<>(List.of(node(), FOLDER.resolve("client.mjs").toString(), agentUrl + "/", user,
        user));
    line.addAll(List.of(command));
    try {
      Process process = new ProcessBuilder(line).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      byte[] out = process.getInputStream().readAllBytes();
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException("client.mjs did not end: " + line);
      }
      String text = new String(out, StandardCharsets.UTF_8).strip();
      return JSON.readTree(text.substring(text.lastIndexOf('\n') + 1));
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Starts {@code server.mjs} (an A2A agent of the SDK's server) on the port; returns once it listens. */
  public static Process server(int port, String token) {
    try {
      ProcessBuilder builder = new ProcessBuilder(node(), FOLDER.resolve("server.mjs").toString(),
          String.valueOf(port), token).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
      Process process = builder.start();
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (!listening(port)) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          process.destroyForcibly();
          throw new IllegalStateException("server.mjs did not listen on port " + port);
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

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The node program; installs the SDK first when it is not (or no longer) what the lock file says. */
  public static synchronized String node() {
    Optional<Path> node = executable("node");
    Optional<Path> npm = executable("npm");
    if (node.isEmpty() || npm.isEmpty()) {
      String reason = "A2A tests need node and npm (Debian packages nodejs and npm) to run the A2A JavaScript SDK";
      if (Boolean.parseBoolean(System.getenv("AGENTLOOP_CI"))) {
        Assertions.fail(reason + ", and in CI they must run");
      }
      System.err.println("SKIPPED: " + reason);
      Assumptions.abort(reason);
    }
    install(npm.get());
    return node.get().toString();
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
