package dev.agentloop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The official A2A JavaScript SDK ({@code @a2a-js/sdk} from npm, at the version pinned in
 * {@code src/test/a2a/package-lock.json}, installed with {@code npm ci} on first use) as the A2A tests' peer: its
 * client against AgentLoop's A2A server ({@code client.mjs}), its server as a remote agent AgentLoop calls
 * ({@code server.mjs}). Without node and npm the calling test is skipped with the reason printed, except in CI
 * ({@code AGENTLOOP_CI=true}), where it fails: there they must run.
 */
public final class A2aPeers {

  private static final NpmFolder NPM = new NpmFolder(Path.of("src/test/a2a"), "A2A tests need node and npm (Debian packages nodejs and npm) to run the A2A JavaScript SDK");
  static final Path FOLDER = NPM.path();
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






  /** The node program, with the folder's packages installed (see {@link NpmFolder}). */
  public static String node() {
    return NPM.node();
  }

  public static int freePort() {
    return NpmFolder.freePort();
  }

  private static boolean listening(int port) {
    return NpmFolder.listening(port);
  }
}
