package dev.agentloop.agent;

import dev.agentloop.trace.Action;
import dev.agentloop.trace.Approvals;
import dev.agentloop.trace.FinalAnswer;
import dev.agentloop.trace.FollowUp;
import dev.agentloop.trace.HumanInput;
import dev.agentloop.trace.Observation;
import dev.agentloop.trace.Step;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.ToIntFunction;

/**
 * What of a run's active path the model reads as a digest, and what it reads whole. Once the steps
 * after the question pass the context budget (estimated tokens), or the window of steps, the oldest
 * turns are folded into a digest block until the rest holds half the budget: a block has a line per
 * call with its arguments, per result with its start, per answer, question and person's note.
 *
 * <p>Deterministic and derived: computed from the active path alone, with no model call, so an edited
 * step re-creates every block from it on, and the trace keeps every step whole. Turns fold whole (a
 * tool result is never apart from its call), blocks are only appended, and a block never changes once
 * made: the prompt up to the newest block stays byte-identical from step to step, which is what
 * providers' prompt caches reuse. Why budget/2: the whole rest then slides at once, every few turns,
 * instead of a step at a time, each of which would change the prompt right after the digest.
 */
final class ContextDigest {

  /** How much of a call's result a digest line keeps: results lead with what they found. */
  static final int RESULT_CHARS = 100;
  private static final int ARGUMENT_CHARS = 80;
  private static final int TEXT_CHARS = 300;

  /**
   * @param blocks the digest blocks, oldest first, each the text of one message
   * @param rest the steps after them, sent whole
   */
  record Layout(List<String> blocks, List<Step> rest) {

    Layout {
      blocks = List.copyOf(blocks);
      rest = List.copyOf(rest);
    }
  }

  private ContextDigest() {}

  /**
   * @param steps the active path after the question, starting at a turn
   * @param tokens the estimated tokens of one turn's steps as the prompt shows them
   */
  static Layout of(List<Step> steps, int budgetTokens, int windowSteps, ToIntFunction<List<Step>> tokens) {
    List<List<Step>> turns = turns(steps);
    List<String> blocks = new ArrayList<>();
    int first = 0;
    long restTokens = 0;
    int restSteps = 0;
    for (int last = 0; last < turns.size(); last++) {
      restTokens += tokens.applyAsInt(turns.get(last));
      restSteps += turns.get(last).size();
      if (restTokens <= budgetTokens && restSteps <= windowSteps) {
        continue;
      }
      // fold down to half the budget, keeping the newest turn whole
      int from = first;
      while (first < last && (restTokens > budgetTokens / 2 || restSteps > windowSteps / 2)) {
        restTokens -= tokens.applyAsInt(turns.get(first));
        restSteps -= turns.get(first).size();
        first++;
      }
      if (first > from) {
        blocks.add(block(turns.subList(from, first)));
      }
    }
    List<Step> rest = new ArrayList<>();
    turns.subList(first, turns.size()).forEach(rest::addAll);
    return new Layout(blocks, rest);
  }

  /**
   * The path cut into turns: a step that is no call, result or approval begins one (a thought, an
   * answer, a question, a person's words); calls, their approvals and results stay with it.
   */
  static List<List<Step>> turns(List<Step> steps) {
    List<List<Step>> turns = new ArrayList<>();
    for (Step step : steps) {
      boolean continues = step.content() instanceof Action || step.content() instanceof Observation
          || step.content() instanceof Approvals;
      if (!continues || turns.isEmpty()) {
        turns.add(new ArrayList<>());
      }
      turns.get(turns.size() - 1).add(step);
    }
    return turns;
  }

  private static String block(List<List<Step>> turns) {
    Step first = turns.get(0).get(0);
    List<Step> lastTurn = turns.get(turns.size() - 1);
    StringBuilder text = new StringBuilder("[AgentLoop] Digest of steps ").append(first.stepNo()).append('-')
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

  private static String head(String text, int chars) {
    String flat = text.strip().replaceAll("\\s+", " ");
    return flat.length() <= chars ? flat : flat.substring(0, chars) + "...";
  }
}
