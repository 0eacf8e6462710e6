package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * How a digest block reads ({@link ContextDigest} decides which turns fold, and when). A block is a line per call
 * with the start of its arguments, per result with its start, per answer, question and person's note; a coarse block
 * puts a call and the start of its result on one line with its arguments' values. Thoughts and approvals have no
 * line: the calls and results say what was done. Every text is flattened to one line and cut at a fixed length,
 * so a block is the same text whenever it is made from the same turns.
 */
final class DigestFormat {

  /** The start of every digest block's text. */
  static final String HEADER = "[AgentLoop] Digest of steps ";
  /** How much of a call's result a digest line keeps: results lead with what they found. */
  static final int RESULT_CHARS = 100;
  /** How much of a call's result a coarse line keeps: the sentence a result leads with. */
  static final int COARSE_RESULT_CHARS = 60;
  private static final int ARGUMENT_CHARS = 80;
  private static final int VALUE_CHARS = 30;
  private static final int TEXT_CHARS = 300;
  private static final int COARSE_TEXT_CHARS = 120;

  private DigestFormat() {}

  /** A block of the turns, oldest first. */
  static String block(List<List<Step>> turns) {
    Step first = turns.get(0).get(0);
    List<Step> lastTurn = turns.get(turns.size() - 1);
    StringBuilder text = new StringBuilder(HEADER).append(first.stepNo()).append('-')
        .append(lastTurn.get(lastTurn.size() - 1).stepNo())
        .append(" (calls and the start of their results; the trace keeps them whole):");
    for (List<Step> turn : turns) {
      for (Step step : turn) {
        line(step).ifPresent(line -> text.append("\n- #").append(step.stepNo()).append(' ').append(line));
      }
    }
    return text.toString();
  }

  /** A step's line; thoughts and approvals have none (the calls and results say what was done). */
  private static Optional<String> line(Step step) {
    String line = null;
    if (step.content() instanceof Action action) {
      line = action.tool() + "(" + head(action.argumentsText(), ARGUMENT_CHARS) + ")";
    } else if (step.content() instanceof Observation observation) {
      line = (observation.ofCall() ? "-> " : "unusable reply: ") + head(observation.text(), RESULT_CHARS);
    } else if (step.content() instanceof HumanInput input) {
      line = "[" + step.author() + "] " + head(input.text(), TEXT_CHARS);
    } else if (step.content() instanceof FollowUp question) {
      line = "question: " + head(question.text(), TEXT_CHARS);
    } else if (step.content() instanceof FinalAnswer answer) {
      line = "answer: " + head(answer.text(), TEXT_CHARS);
    }
    return Optional.ofNullable(line);
  }

  /** A coarse block of the turns, oldest first, which earlier blocks of them fold into. */
  static String coarseBlock(List<List<Step>> turns) {
    Step first = turns.get(0).get(0);
    List<Step> lastTurn = turns.get(turns.size() - 1);
    StringBuilder text = new StringBuilder(HEADER).append(first.stepNo()).append('-')
        .append(lastTurn.get(lastTurn.size() - 1).stepNo())
        .append(" in short (each call with its arguments and the start of its result; the trace keeps them whole):");
    for (List<Step> turn : turns) {
      Map<String, Observation> results = new HashMap<>();
      Set<String> calls = new HashSet<>();
      for (Step step : turn) {
        if (step.content() instanceof Observation observation && observation.ofCall()) {
          results.putIfAbsent(observation.callId(), observation);
        } else if (step.content() instanceof Action action) {
          calls.add(action.callId());
        }
      }
      for (Step step : turn) {
        coarseLine(step, results, calls)
            .ifPresent(line -> text.append("\n#").append(step.stepNo()).append(' ').append(line));
      }
    }
    return text.toString();
  }

  /** A step's coarse line: a call with its result on one line; thoughts and approvals have none. */
  private static Optional<String> coarseLine(Step step, Map<String, Observation> results, Set<String> calls) {
    String line = null;
    if (step.content() instanceof Action action) {
      Observation result = results.get(action.callId());
      line = action.tool() + " " + values(action) + (result == null ? "" : " -> " + head(result.text(),
          COARSE_RESULT_CHARS));
    } else if (step.content() instanceof Observation observation) {
      if (!observation.ofCall()) {
        line = "unusable reply: " + head(observation.text(), COARSE_RESULT_CHARS);
      } else if (!calls.contains(observation.callId())) {
        line = "-> " + head(observation.text(), COARSE_RESULT_CHARS);
      }
    } else if (step.content() instanceof HumanInput input) {
      line = "[" + step.author() + "] " + head(input.text(), COARSE_TEXT_CHARS);
    } else if (step.content() instanceof FollowUp question) {
      line = "question: " + head(question.text(), COARSE_TEXT_CHARS);
    } else if (step.content() instanceof FinalAnswer answer) {
      line = "answer: " + head(answer.text(), COARSE_TEXT_CHARS);
    }
    return Optional.ofNullable(line);
  }

  /** The arguments' values by key ({@code page=3}), or the start of what the model wrote. */
  private static String values(Action action) {
    if (!action.hasValidArguments()) {
      return head(action.argumentsText(), VALUE_CHARS);
    }
    List<String> values = new ArrayList<>();
    action.arguments().fields().forEachRemaining(field -> values.add(field.getKey() + "="
        + head(field.getValue().isValueNode() ? field.getValue().asText() : field.getValue().toString(), VALUE_CHARS)));
    return String.join(", ", values);
  }

  private static String head(String text, int chars) {
    String flat = text.strip().replaceAll("\\s+", " ");
    return flat.length() <= chars ? flat : flat.substring(0, chars) + "...";
  }
}
