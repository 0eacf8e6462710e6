package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.api.RunStatus;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * What a data-set case expects of its answer; each given expectation is one check. Immutable.
 *
 * @param contains texts the answer must contain, any case
 * @param matches regular expressions (Java's) the answer must match somewhere
 * @param fields values the answer's fields ({@code answerData}) must have, by field name
 * @param outcome how the run must end, e.g. {@code ANSWERED}; {@code null}: not checked
 * @param answer a reference answer, which the judge (if the evaluation has one) scores the candidate's against
 */
public record Expectations(List<String> contains, List<String> matches, Map<String, JsonNode> fields,
    RunStatus outcome, String answer) {

  public static final Expectations NONE = new Expectations(null, null, null, null, null);

  public Expectations {
    contains = contains == null ? List.of() : List.copyOf(contains);
    matches = matches == null ? List.of() : List.copyOf(matches);
    fields = fields == null ? Map.of() : Map.copyOf(fields);
    if (contains.stream().anyMatch(text -> text == null || text.isEmpty())) {
      throw new IllegalArgumentException("expect.contains holds an empty text; give the words the answer must contain");
    }
    matches.forEach(Expectations::compile);
    if (outcome != null && !outcome.isFinished()) {
      throw new IllegalArgumentException("expect.outcome is how a run ends (ANSWERED, REJECTED, STOPPED, CANCELLED),"
          + " not " + outcome);
    }
  }

  /** The pattern of {@link #matches}. */
  static Pattern compile(String regex) {
    if (regex == null || regex.isEmpty()) {
      throw new IllegalArgumentException("expect.matches holds an empty regular expression");
    }
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new IllegalArgumentException("expect.matches holds '" + regex + "', which is no regular expression: "
          + e.getDescription(), e);
    }
  }

  /** Whether nothing is expected. */
  boolean isEmpty() {
    return contains.isEmpty() && matches.isEmpty() && fields.isEmpty() && outcome == null;
  }
}
