package dev.agentloop.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StoredTextTest {

  @Test
  void should_replace_a_nul_and_lone_surrogates_and_keep_everything_else() {
    assertThat(StoredText.of("a\0b")).isEqualTo("a\uFFFDb");
    assertThat(StoredText.of("\0")).isEqualTo("\uFFFD");
    assertThat(StoredText.of("x\uD83D")).isEqualTo("x\uFFFD");
    assertThat(StoredText.of("\uDE00y")).isEqualTo("\uFFFDy");
    String kept = "plain, ünïcode, emoji \uD83D\uDE00, tab\t, line\nbreak";
    assertThat(StoredText.of(kept)).isSameAs(kept);
    assertThat(StoredText.of(null)).isNull();
  }

  @Test
  void should_replace_a_nul_that_json_escaped_but_not_an_escaped_backslash_before_u0000() {
    assertThat(StoredText.ofJson("{\"t\":\"a\\u0000b\"}")).isEqualTo("{\"t\":\"a\\uFFFDb\"}");
    // the text backslash-u0000, written by JSON as two backslashes then u0000, is no NUL and stays
    assertThat(StoredText.ofJson("{\"t\":\"a\\\\u0000b\"}")).isEqualTo("{\"t\":\"a\\\\u0000b\"}");
    assertThat(StoredText.ofJson("{\"t\":\"a\\\\\\u0000b\"}")).isEqualTo("{\"t\":\"a\\\\\\uFFFDb\"}");
  }
}
