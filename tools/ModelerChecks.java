import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Runs the npm-based checks of what analysts edit (see package.json, {@code npm run check}): bpmnlint
 * over processes/, the element templates against their JSON schema, and the unit tests of the Cockpit
 * plugin's logic ({@code node --test tools/plugin-tests/}). The Maven build starts it
 * with the JDK that runs Maven, as a single-file program, so starting it needs nothing but Java.
 *
 * <p>Node.js is optional outside CI: without it (or with an npm registry out of reach) the checks are
 * skipped with a warning, so the README's quick start works with Java and Maven alone. With
 * {@code AGENTLOOP_CI=true} the same conditions fail the build, so CI never passes unchecked.
 * Findings of the checks always fail the build.
 *
 * <p>Usage: {@code java tools/ModelerChecks.java <project directory>}
 */
public final class ModelerChecks {

  private static final int NODE_MAJOR = 20;
  private static final String PREFIX = "[modeler-checks] ";
  private static final boolean WINDOWS = System.getProperty("os.name").toLowerCase(Locale.ROOT).startsWith("windows");
  /** Where the hash of the lock file the installed packages came from is kept, to skip a fresh npm ci. */
  private static final String INSTALLED_STAMP = "node_modules/.agentloop-package-lock.sha256";

  private ModelerChecks() {}

  public static void main(String[] args) throws Exception {
    Path project = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
    boolean ci = "true".equalsIgnoreCase(System.getenv("AGENTLOOP_CI"));
    Optional<Path> node = onPath(WINDOWS ? "node.exe" : "node");
    Optional<Path> npm = onPath(WINDOWS ? "npm.cmd" : "npm");
    if (node.isEmpty() || npm.isEmpty()) {
      unavailable(ci, "Node.js " + NODE_MAJOR + "+ with npm is not on the PATH");
      return;
    }
    String version = output(project, node.get().toString(), "--version");
    if (majorOf(version) < NODE_MAJOR) {
      unavailable(ci, "Node.js " + version + " is too old, bpmnlint needs " + NODE_MAJOR + " or newer");
      return;
    }
    if (!installed(project)) {
      System.out.println(PREFIX + "installing the checkers from package-lock.json (npm ci)");
      if (run(project, npm.get().toString(), "ci", "--no-audit", "--no-fund") != 0) {
        unavailable(ci, "npm ci failed (is the npm registry reachable?)");
        return;
      }
      Files.writeString(project.resolve(INSTALLED_STAMP), lockHash(project));
    }
    if (run(project, npm.get().toString(), "run", "--silent", "check") != 0) {
      System.err.println(PREFIX + "the diagrams, element templates or plugin tests have findings; see above."
          + " Run 'npm run check' to repeat the checks without Maven");
      System.exit(1);
    }
    System.out.println(PREFIX + "every diagram in processes/ passes bpmnlint (.bpmnlintrc), the element templates are valid,"
        + " the plugin's unit tests pass");
  }

  private static void unavailable(boolean ci, String reason) {
    if (ci) {
      System.err.println(PREFIX + "FAILED: " + reason + ". In CI (AGENTLOOP_CI=true) the diagrams must be linted.");
      System.exit(1);
    }
    System.out.println(PREFIX + "WARNING: " + reason + ": the diagrams are NOT linted and the element templates NOT"
        + " validated. Install Node.js " + NODE_MAJOR + "+ to check them.");
  }

  private static boolean installed(Path project) throws IOException {
    Path stamp = project.resolve(INSTALLED_STAMP);
    return Files.isRegularFile(stamp) && Files.readString(stamp).equals(lockHash(project));
  }

  private static String lockHash(Path project) throws IOException {
    try {
      byte[] lock = Files.readAllBytes(project.resolve("package-lock.json"));
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(lock));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Optional<Path> onPath(String executable) {
    String path = System.getenv("PATH");
    if (path == null) {
      return Optional.empty();
    }
    for (String folder : path.split(java.io.File.pathSeparator)) {
      if (!folder.isBlank()) {
        Path candidate = Path.of(folder).resolve(executable);
        if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
          return Optional.of(candidate);
        }
      }
    }
    return Optional.empty();
  }

  private static int majorOf(String version) {
    try {
      return Integer.parseInt(version.replaceFirst("^v", "").split("\\.")[0].trim());
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  private static int run(Path project, String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).directory(project.toFile()).inheritIO().start();
    return process.waitFor();
  }

  private static String output(Path project, String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).start();
    String text = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    process.waitFor(30, TimeUnit.SECONDS);
    return text;
  }
}
