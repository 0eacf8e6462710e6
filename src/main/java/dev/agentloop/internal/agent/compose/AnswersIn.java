package dev.agentloop.internal.agent.compose;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The answers of calls of agents that were in when their {@code callAgent} was cancelled
 * ({@link ReactAgentProcess#ANSWERS_IN}): one {@code <call id> <child run>} a line, read where the run's open calls
 * are closed, so that what the children answered is not thrown away with the calls still open.
 */
public final class AnswersIn {

  private AnswersIn() {}

  static String write(Map<String, String> childRuns) {
    return new TreeMap<>(childRuns).entrySet().stream().filter(entry -> entry.getValue() != null)
        .map(entry -> entry.getKey() + " " + entry.getValue()).collect(Collectors.joining("\n"));
  }

  /** The child run that answered each call, by call id; empty for {@code null} or blank. */
  public static Map<String, String> read(String text) {
    Map<String, String> childRuns = new LinkedHashMap<>();
    if (text != null) {
      for (String line : text.split("\n")) {
        int space = line.lastIndexOf(' ');
        if (space > 0) {
          childRuns.put(line.substring(0, space), line.substring(space + 1));
        }
      }
    }
    return childRuns;
  }
}
