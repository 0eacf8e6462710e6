package dev.agentloop.internal.evaluation;

import java.util.Objects;

/**
 * One check of a case and how it went.
 *
 * @param name what was checked: {@code outcome}, {@code field <name>}, {@code contains}, {@code matches},
 *     {@code judge}
 * @param detail what was compared, in words
 * @param score the judge's score (0 to 1), else {@code null}
 * @param reasoning the judge's reasoning, else {@code null}
 */
public record Check(String name, boolean passed, String detail, Double score, String reasoning) {

  public Check {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(detail, "detail");
  }

  static Check of(String name, boolean passed, String detail) {
    return new Check(name, passed, detail, null, null);
  }
}
