package dev.agentloop;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A folder of npm packages the tests run with node (the MCP servers, the A2A SDK), at the versions pinned in its
 * {@code package-lock.json}, installed with {@code npm ci} on first use. Without node and npm the calling test is
 * skipped with the reason printed, except in CI ({@code AGENTLOOP_CI=true}), where it fails: there they must run.
 */
public final class NpmFolder {

  private final Path folder;
  private final String need;

  /** @param need what the tests need node for, e.g. "MCP tests need node and npm … to run the MCP servers" */
  public NpmFolder(Path folder, String need) {
    this.folder = folder.toAbsolutePath();
    this.need = need;
  }

  public Path path() {
    return folder;
  }

  /** The node program; installs the folder's packages first when they are not (or no longer) what the lock says. */
  public synchronized String node() {
    Optional<Path> node = executable("node");
    Optional<Path> npm = executable("npm");
    if (node.isEmpty() || npm.isEmpty()) {
      if (Boolean.parseBoolean(System.getenv("AGENTLOOP_CI"))) {
        Assertions.fail(need + ", and in CI they must run");
      }
      System.err.println("SKIPPED: " + need);
      Assumptions.abort(need);
    }
    install(npm.get());
    return node.get().toString();
  }

  public static boolean listening(int port) {
    try (Socket socket = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Installs under a file lock: the build's test JVMs (one per core) may ask for the same folder at once. */
  private void install(Path npm) {
    try (FileChannel lock = FileChannel.open(folder.resolve(".install.lock"), StandardOpenOption.CREATE,
        StandardOpenOption.WRITE); FileLock held = lock.lock()) {
      installLocked(npm);
    } catch (IOException e) {
      throw new IllegalStateException("cannot lock " + folder + " for npm ci", e);
    }
  }

  private void installLocked(Path npm) {
    Path installed = folder.resolve("node_modules/.package-lock.json");
    try {
      // npm ci writes node_modules/.package-lock.json: newer than the lock file means installed from it
      if (Files.exists(installed) && Files.getLastModifiedTime(installed)
          .compareTo(Files.getLastModifiedTime(folder.resolve("package-lock.json"))) >= 0) {
        return;
      }
    } catch (IOException e) {
      // install again
    }
    try {
      Process process = new ProcessBuilder(npm.toString(), "ci", "--no-audit", "--no-fund").directory(folder.toFile())
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
      if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
        throw new IllegalStateException("npm ci in " + folder + " failed");
      }
    } catch (IOException e) {
      throw new IllegalStateException("npm ci in " + folder + " failed", e);
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
