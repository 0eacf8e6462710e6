package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Approvals;
import dev.agentloop.internal.trace.step.Observation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * What of a run's active path the model reads as a digest, and what it reads whole. The context
 * budget (estimated tokens) holds the digest and the steps after it: once they pass it, or the
 * window of steps, the oldest turns are folded into a digest block (a line per call with its
 * arguments, per result with its start, per answer, question and person's note, as
 * {@link DigestFormat} writes them) until a quarter of the budget is free again. Once those blocks
 * pass a sixth of the budget, all but the newest fold once
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
      String text = DigestFormat.block(folded);
      fine.add(new Fine(folded, text, textTokens.applyAsInt(text)));
      digestTokens += fine.get(fine.size() - 1).tokens();
      long fineTokens = fine.stream().mapToLong(Fine::tokens).sum();
      if (fineTokens > budgetTokens / 6 && fine.size() > 1) {
        // this fold changes the prompt after the coarse blocks anyway: the older blocks go coarse now
        List<Fine> older = fine.subList(0, fine.size() - 1);
        List<List<Step>> olderTurns = new ArrayList<>();
        older.forEach(block -> olderTurns.addAll(block.turns()));
        String coarseText = DigestFormat.coarseBlock(olderTurns);
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
}
