package dev.agentloop;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No class of the library grows past 300 lines (its file, comments and imports included): a class that size does
 * more than one thing, and the next engineer should find each thing under its own name. Split by responsibility, not
 * by line count (docs/architecture.md).
 */
class ClassSizeTest {

  private static final int MAX_LINES = 300;

  @Test
  void should_keep_every_class_of_the_library_under_300_lines() throws IOException {
    List<String> tooLong;
    try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
      tooLong = files.filter(file -> file.toString().endsWith(".java")).filter(file -> lines(file) > MAX_LINES)
          .map(file -> file + " (" + lines(file) + " lines)").toList();
    }
    assertThat(tooLong).as("classes over %d lines", MAX_LINES).isEmpty();
  }

  private static long lines(Path file) {
    try (Stream<String> lines = Files.lines(file)) {
      return lines.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
