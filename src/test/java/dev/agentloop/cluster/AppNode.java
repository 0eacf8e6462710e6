package dev.agentloop.cluster;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The stand-alone app ({@code dev.agentloop.AgentLoopApplication}) in a JVM of its own, started on
 * the test's class path (or from the packaged jar, see {@link Builder#jar}) with the given properties, so that a test can kill it like a crashed
 * machine: {@link #kill()} is {@code kill -9}, no shutdown hook and no graceful stop run. Its output
 * goes to {@code target/nodes/<name>.log}; a restarted node appends to the same file.
 */
public final class AppNode implements AutoCloseable {

  private static final Path LOGS = Path.of("target", "nodes");
  /** Starting Spring, Camunda and the webapps on a busy 2-core machine; generous, not a timing assertion. */
  private static final Duration STARTUP_PATIENCE = Duration.ofMinutes(3);

  private final String name;
  private final int port;
  private final Path workingDirectory;
  private final Map<String, String> environment;
  private final Map<String, String> properties;
  private final Path jar;
  private final NodeApi api;
  private Process process;

  /** JVM flags of a node that starts and runs briefly, as test nodes do: no optimizing compiler, one GC thread. */
  private static final List<String> QUICK_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

  private final boolean quickStart;

  private AppNode(Builder builder) {
    this.name = builder.name;
    this.workingDirectory = builder.workingDirectory;
    this.environment = Map.copyOf(builder.environment);
    this.jar = builder.jar;
    this.quickStart = builder.quickStart;
    int port = freePort();
    this.port = port;
    this.properties = new LinkedHashMap<>(builder.properties);
    this.properties.put("server.port", Integer.toString(port));
    this.api = new NodeApi("http://localhost:" + port);
  }

  public static Builder named(String name) {
    return new Builder(name);
  }

  public String name() {
    return name;
  }

  /** The node's HTTP port. */
  public int port() {
    return port;
  }

  public NodeApi api() {
    return api;
  }

  public Path log() {
    return LOGS.resolve(name + ".log").toAbsolutePath();
  }

  /** Like pulling the plug: SIGKILL, nothing in the JVM runs any more. */
  public void kill() {
    process.destroyForcibly();
    awaitExit();
  }

  /** As an operator or an orchestrator stops it: SIGTERM, and the JVM's shutdown hook closes Spring. */
  public void stop() {
    process.destroy();
    try {
      if (!process.waitFor(2, TimeUnit.MINUTES)) {
        throw new IllegalStateException("node " + name + " did not stop within 2 minutes of SIGTERM; see " + log());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Starts the node again on the same port with the same properties, after a {@link #kill()} or {@link #stop()}. */
  public void restart() {
    if (process.isAlive()) {
      throw new IllegalStateException(name + " still runs; kill it first");
    }
    launch();
  }

  /** Kills the node if it still runs; for clean-up after a test, whatever happened in it. */
  @Override
  public void close() {
    if (process != null && process.isAlive()) {
      kill();
    }
  }

  private void launch() {
    try {
      Files.createDirectories(LOGS);
      ProcessBuilder builder = new ProcessBuilder(command())
          .directory(workingDirectory.toFile())
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()));
      builder.environment().putAll(environment);
      process = builder.start();
      Process started = process;
      // should the test JVM end without @AfterAll (System.exit, a fork timeout), the node goes with it
      Runtime.getRuntime().addShutdownHook(new Thread(started::destroyForcibly, name + "-reaper"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start node " + name, e);
    }
    await().atMost(STARTUP_PATIENCE).pollInterval(Duration.ofMillis(250)).until(() -> {
      if (!process.isAlive()) {
        throw new IllegalStateException("node " + name + " exited with " + process.exitValue() + " while starting; see "
            + log());
      }
      return api.isUp();
    });
  }

  private List<String> command() {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx1g"));
    if (quickStart) {
      command.addAll(QUICK_START);
    }
    if (jar == null) {
      command.addAll(List.of("-cp", classPath(), "dev.agentloop.AgentLoopApplication"));
    } else {
      command.addAll(List.of("-jar", jar.toString()));
    }
    properties.forEach((key, value) -> command.add("--" + key + "=" + value));
    return command;
  }

  /**
   * The test's class path without empty entries: surefire's has one, which would put the working
   * directory on the class path and deploy {@code ./processes} a second time.
   */
  private static String classPath() {
    return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(entry -> !entry.isBlank())
        .collect(Collectors.joining(File.pathSeparator));
  }

  private void awaitExit() {
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("node " + name + " did not exit after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** How to start a node: its name (for the log file), where it runs, its environment and its properties. */
  public static final class Builder {

    private final String name;
    private Path workingDirectory = Path.of("").toAbsolutePath();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private final Map<String, String> properties = new LinkedHashMap<>();
    private Path jar;
    private boolean quickStart = true;

    private Builder(String name) {
      this.name = name;
    }

    /** Where relative paths of the app resolve, e.g. the default H2 file {@code ./data/agentloop}; default: here. */
    public Builder workingDirectory(Path directory) {
      this.workingDirectory = directory.toAbsolutePath();
      return this;
    }

    public Builder environment(String name, String value) {
      environment.put(name, value);
      return this;
    }

    /**
     * Runs the packaged app as users do, {@code java -jar} of the executable jar, instead of the main
     * class on the test's class path: nested jars, their class loader and the jar's own resources.
     */
    public Builder jar(Path executableJar) {
      if (!Files.isRegularFile(executableJar)) {
        throw new IllegalArgumentException("no executable jar at " + executableJar.toAbsolutePath()
            + "; build it with mvn package");
      }
      this.jar = executableJar.toAbsolutePath();
      return this;
    }

    /** The postgres profile, connected to the database through the profile's environment variables. */
    public Builder postgres(PostgresServer.Database database) {
      return property("spring.profiles.active", "postgres")
          .environment("AGENTLOOP_DB_URL", database.jdbcUrl())
          .environment("AGENTLOOP_DB_USER", database.user())
          .environment("AGENTLOOP_DB_PASSWORD", database.password());
    }

    /** A node measured for speed (benchmarks): the JVM's own defaults, not the flags that make tests start fast. */
    public Builder peakSpeed() {
      this.quickStart = false;
      return this;
    }

    /** A Spring property, given as a command-line argument {@code --key=value}. */
    public Builder property(String key, String value) {
      properties.put(key, value);
      return this;
    }

    /**
     * Starts the node and waits until its API answers as the demo user: by then the engine runs, and
     * the worker starts right after the web server.
     */
    public AppNode start() {
      try {
        Files.createDirectories(workingDirectory);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      AppNode node = new AppNode(this);
      node.launch();
      return node;
    }
  }
}
