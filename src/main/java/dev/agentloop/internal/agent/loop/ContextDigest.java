package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approvals;
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
import java.util.function.ToIntFunction;

/**
 * What of a run's active path the model reads as a digest, and what it reads whole. The context
 * budget (estimated tokens) holds the digest and the steps after it: once they pass it, or the
 * window of steps, the oldest turns are folded into a digest block (a line per call with its
 * arguments, per result with its start, per answer, question and person's note) until a quarter of
 * the budget is free again. Once those blocks pass a sixth of the budget, all but the newest fold once
 * more into one coarse block: a line per call with its arguments' values and the first 60 characters
 * of its result. So the prompt stays within the budget until the coarse lines alone fill two thirds of
 * it (some 200 calls at the default, a line being about 20 tokens); from then on it grows by a coarse
 * line per call, and the steps sent whole keep a third of the budget.
 *
 * <p>Deterministic and derived: computed from the active path alone, with no model call, so an edited
 * step re-creates every block from it on, and the trace keeps every step whole. Turns fold whole (a
 * tool result is never apart from its call) and a block never changes once made. Coarse blocks come
 * first and are only appended; the blocks after them are appended too and fold into a coarse block
 * only when turns fold, so the prompt up to the newest block stays byte-identical from step to step,
 * a fold changes only what follows it (a coarse fold, what follows the coarse blocks): that prefix is
 * what providers' prompt caches reuse. Why a quarter: the steps sent whole then slide at once, every few turns, instead of a step at
 * a time, each of which would change the prompt right after the digest.
 */
public final class ContextDigest {

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

  /**
   * @param blocks the digest blocks, oldest first, each the text of one message: coarse ones first
   * @param rest the steps after them, sent whole
   */
  record Layout(List<String> blocks, List<Step> rest) {

    Layout {
      blocks = List.copyOf(blocks);
      rest = List.copyOf(rest);
    }
  }

  /** A digest block that may still fold into a coarse one: its turns, its text and its tokens. */
  private record Fine(List<List<Step>> turns, String text, int tokens) {}

  private ContextDigest() {}

  /**
   * @param steps the active path after the question, starting at a turn
   * @param turnTokens the estimated tokens of one turn's steps as the prompt shows them
   * @param textTokens the estimated tokens of a text, a block's
   */
  static Layout of(List<Step> steps, int budgetTokens, int windowSteps, ToIntFunction<List<Step>> turnTokens,
      ToIntFunction<String> textTokens) {
    List<List<Step>> turns = turns(steps);
    List<String> coarse = new ArrayList<>();
    List<Fine> fine = new ArrayList<>();
    long digestTokens = 0;
    int first = 0;
    long restTokens = 0;
    int restSteps = 0;
    for (int last = 0; last < turns.size(); last++) {
      restTokens += turnTokens.applyAsInt(turns.get(last));
      restSteps += turns.get(last).size();
      // the steps sent whole keep a third of the budget, however long the digest
      long allowance = Math.max(budgetTokens - digestTokens, budgetTokens / 3);
      if (restTokens <= allowance && restSteps <= windowSteps) {
        continue;
      }
      // fold until a quarter of the budget is free, keeping the newest turn whole
      long target = allowance - Math.min(budgetTokens / 4, allowance / 2);
      int from = first;
      while (first < last && (restTokens > target || restSteps > windowSteps / 2)) {
        restTokens -= turnTokens.applyAsInt(turns.get(first));
        restSteps -= turns.get(first).size();
        first++;
      }
      if (first == from) {
        continue;
      }
      List<List<Step>> folded = List.copyOf(turns.subList(from, first));
      String text = block(folded);
      fine.add(new Fine(folded, text, textTokens.applyAsInt(text)));
      digestTokens += fine.get(fine.size() - 1).tokens();
      long fineTokens = fine.stream().mapToLong(Fine::tokens).sum();
      if (fineTokens > budgetTokens / 6 && fine.size() > 1) {
        // this fold changes the prompt after the coarse blocks anyway: the older blocks go coarse now
        List<Fine> older = fine.subList(0, fine.size() - 1);
        List<List<Step>> olderTurns = new ArrayList<>();
        older.forEach(block -> olderTurns.addAll(block.turns()));
        String coarseText = coarseBlock(olderTurns);
        coarse.add(coarseText);
        digestTokens += textTokens.applyAsInt(coarseText) - older.stream().mapToLong(Fine::tokens).sum();
        older.clear();
      }
    }
    List<String> blocks = new ArrayList<>(coarse);
    fine.forEach(block -> blocks.add(block.text()));
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

  private static String coarseBlock(List<List<Step>> turns) {
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
