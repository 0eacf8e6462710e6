package dev.agentloop.internal.trace;

import java.util.regex.Pattern;

/**
 * The one rule for text that people, models and tools hand AgentLoop: it is stored as it came, except
 * for the characters a database cannot hold as text — U+0000 (PostgreSQL rejects it in every text
 * column, Camunda's variables and history included) and UTF-16 surrogates without their pair (no UTF-8
 * encoding exists for them) — which become U+FFFD, the replacement character, wherever text enters the
 * trace or the run's variables, on every database alike. So a NUL from a model or a tool never breaks a
 * run, and a question or a note with one is taken, not refused. Stateless; thread-safe.
 */
public final class StoredText {

  /** What a character that cannot be stored becomes. */
  public static final char REPLACEMENT = '\uFFFD';

  /** A NUL as JSON escapes it (a backslash, then u0000), after an even number of backslashes, which escape each other. */
  private static final Pattern JSON_NUL = Pattern.compile("(?<!\\\\)((?:\\\\\\\\)*)\\\\u0000");

  private StoredText() {}

  /** The text as it is stored: U+0000 and unpaired surrogates replaced by U+FFFD; {@code null} stays {@code null}. */
  public static String of(String text) {
    if (text == null || isStorable(text)) {
      return text;
    }
    StringBuilder stored = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
        stored.append(c).append(text.charAt(++i));
      } else {
        stored.append(c == 0 || Character.isSurrogate(c) ? REPLACEMENT : c);
      }
    }
    return stored.toString();
  }

  /**
   * JSON text as it is stored: the same rule for the strings inside it, also where JSON escapes a NUL, whose
   * escape becomes the escape of U+FFFD, of the same length (a request body keeps its Content-Length).
   */
  public static String ofJson(String json) {
    String stored = of(json);
    if (stored.indexOf("\\u0000") < 0) {
      return stored;
    }
    return JSON_NUL.matcher(stored).replaceAll("$1\\\\uFFFD");
  }

  private static boolean isStorable(String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == 0) {
        return false;
      }
      if (Character.isSurrogate(c)) {
        if (!Character.isHighSurrogate(c) || i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1))) {
          return false;
        }
        i++;
      }
    }
    return true;
  }
}
