package dev.agentloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every WARN and ERROR line of the library starts with a code {@code AGENTLOOP-nnn} (as Camunda's
 * {@code ENGINE-xxxxx}) that the table "Warning codes" of {@code docs/operating.md} lists with what to do, so that
 * an operator who searches the code finds the action. Read from the sources, no Spring: a new warning without a
 * code, a code taken twice, or a code the page does not list fails here with the file and line.
 */
class WarningCodesTest {

  /** The sources and the page (the tests run in the repository's root). */
  static final Path SOURCES = Path.of("src/main/java");
  static final Path PAGE = Path.of("docs/operating.md");

  private static final Pattern CODE = Pattern.compile("AGENTLOOP-\\d{3}");
  private static final Pattern CODE_FIRST = Pattern.compile("^(AGENTLOOP-\\d{3})\\b");
  /** A logger's name, wherever one is declared (field or parameter), e.g. {@code LOG} or {@code log}. */
  private static final Pattern LOGGER = Pattern.compile("\\bLogger\\s+(\\w+)\\s*[=;,)]");
  private static final Pattern TABLE_ROW = Pattern.compile("^\\| `(AGENTLOOP-\\d{3})` \\|", Pattern.MULTILINE);

  /** A call {@code LOG.warn(…)} or {@code LOG.error(…)}: file:line, and its message's first literal (or null). */
  record Call(String where, String message) {

    /** The code the message starts with, or null. */
    String code() {
      Matcher code = message == null ? null : CODE_FIRST.matcher(message);
      return code != null && code.find() ? code.group(1) : null;
    }

    String file() {
      return where.substring(0, where.lastIndexOf(':'));
    }
  }

  @Test
  void should_give_every_warning_and_error_a_code() {
    List<String> uncoded = calls().stream().filter(call -> call.code() == null)
        .map(call -> call.where() + " " + (call.message() == null ? "(no literal message)" : call.message())).toList();

    assertThat(uncoded).as("WARN and ERROR lines whose message does not start with a code AGENTLOOP-nnn (pick the"
        + " next free one of its area and list it in %s)", PAGE).isEmpty();
  }

  @Test
  void should_use_each_code_for_one_warning() {
    // one warning lives in one class: its variants (said first, then again with a count) share its code there
    Map<String, List<Call>> callsByCode = new TreeMap<>(calls().stream().filter(call -> call.code() != null)
        .collect(Collectors.groupingBy(Call::code)));
    List<String> shared = callsByCode.entrySet().stream()
        .filter(entry -> entry.getValue().stream().map(Call::file).distinct().count() > 1)
        .map(entry -> entry.getKey() + " at " + entry.getValue().stream().map(Call::where).toList()).toList();

    assertThat(shared).as("codes used for different warnings").isEmpty();
  }

  @Test
  void should_list_every_code_on_the_operating_page_and_no_other() throws IOException {
    List<String> listed = listed();
    Map<String, String> used = codesInSources();

    assertThat(listed).as("the table of %s, in numeric order, each code once", PAGE).isSorted().doesNotHaveDuplicates();
    assertThat(used.entrySet().stream().filter(code -> !listed.contains(code.getKey()))
        .map(code -> code.getKey() + " at " + code.getValue()))
        .as("codes in %s that the table of %s does not list", SOURCES, PAGE).isEmpty();
    assertThat(listed.stream().filter(code -> !used.containsKey(code)))
        .as("codes in the table of %s that no source uses", PAGE).isEmpty();
  }

  @Test
  void should_find_calls_however_they_are_written() {
    // the scanner itself: a logger of any name, a message on the next line, a message that is no literal
    String source = """
        class Sample {
          private static final Logger LOG = LoggerFactory.getLogger(Sample.class);
          Sample(Logger log) {
            LOG.warn("AGENTLOOP-123 all is \\"well\\"; do nothing", 1);
            log.error(
                "no code here", e);
            LOG.info("not a warning");
            LOG.warn(message);
          }
        }
        """;

    assertThat(calls("Sample.java", source)).containsExactly(
        new Call("Sample.java:4", "AGENTLOOP-123 all is \\\"well\\\"; do nothing"),
        new Call("Sample.java:5", "no code here"),
        new Call("Sample.java:8", null));
    assertThat(calls("Sample.java", source)).extracting(Call::code).containsExactly("AGENTLOOP-123", null, null);
  }

  /** Every WARN and ERROR call of the library's sources. */
  private static List<Call> calls() {
    return sources().flatMap(file -> calls(file.toString(), read(file)).stream()).toList();
  }

  static List<Call> calls(String file, String text) {
    Set<String> loggers = LOGGER.matcher(text).results().map(found -> found.group(1)).collect(Collectors.toSet());
    if (loggers.isEmpty()) {
      return List.of();
    }
    Pattern call = Pattern.compile("\\b(" + String.join("|", loggers) + ")\\s*\\.\\s*(warn|error)\\s*\\(\\s*");
    List<Call> calls = new ArrayList<>();
    Matcher found = call.matcher(text);
    while (found.find()) {
      calls.add(new Call(file + ":" + lineAt(text, found.start()), literalAt(text, found.end())));
    }
    return calls;
  }

  /** The string literal that starts at {@code at} (its text as written, escapes kept), or null if none does. */
  private static String literalAt(String text, int at) {
    if (text.charAt(at) != '"') {
      return null;
    }
    int end = at + 1;
    while (text.charAt(end) != '"') {
      end += text.charAt(end) == '\\' ? 2 : 1;
    }
    return text.substring(at + 1, end);
  }

  /** Every code the sources name (in a log line, an exception's message, a comment), with where it is first. */
  private static Map<String, String> codesInSources() {
    Map<String, String> used = new TreeMap<>();
    sources().forEach(file -> {
      String text = read(file);
      CODE.matcher(text).results()
          .forEach(code -> used.putIfAbsent(code.group(), file + ":" + lineAt(text, code.start())));
    });
    return used;
  }

  private static long lineAt(String text, int at) {
    return text.substring(0, at).chars().filter(c -> c == '\n').count() + 1;
  }

  /** The codes of the table under "## Warning codes", in the page's order. */
  private static List<String> listed() throws IOException {
    String page = Files.readString(PAGE);
    int section = page.indexOf("## Warning codes");
    assertThat(section).as("%s has a section \"## Warning codes\"", PAGE).isNotNegative();
    int next = page.indexOf("\n## ", section + 1);
    String table = page.substring(section, next < 0 ? page.length() : next);
    return TABLE_ROW.matcher(table).results().map(row -> row.group(1)).toList();
  }

  private static Stream<Path> sources() {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      return files.filter(file -> file.toString().endsWith(".java")).sorted().toList().stream();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
