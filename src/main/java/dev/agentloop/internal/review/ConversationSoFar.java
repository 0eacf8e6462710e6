package dev.agentloop.internal.review;

import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.ArrayList;
import java.util.List;

/**
 * What a review of a follow-up shows of the conversation before it: each earlier question with the answer it
 * got, oldest first, each cut short (a reviewer needs the thread, not every word; the trace keeps them whole).
 * Empty in a run's first turn. Every review of the turn shows it, the answer review as the others.
 */
final class ConversationSoFar {

  /** Task-local variable the forms show it from. */
  static final String EARLIER_TURNS = "earlierTurns";
  static final int QUESTION_CHARS = 300;
  static final int ANSWER_CHARS = 500;

  private ConversationSoFar() {}

  static String of(RunState run) {
    Step turnStart = run.latestFollowUp().orElse(null);
    if (turnStart == null) {
      return "";
    }
    List<String> questions = new ArrayList<>(List.of(": " + cut(run.run().question(), QUESTION_CHARS)));
    List<String> answers = new ArrayList<>();
    answers.add(null);
    for (Step step : run.questionsAndAnswers(true)) {
      if (step.stepNo() >= turnStart.stepNo()) {
        break;
      }
      if (step.content() instanceof FollowUp question) {
        questions.add(" (" + step.author() + "): " + cut(question.text(), QUESTION_CHARS));
        answers.add(null);
      } else if (step.content() instanceof FinalAnswer answer) {
        // a turn's answer is its newest one: an earlier answer of the same turn was regenerated or given feedback
        answers.set(answers.size() - 1, cut(answer.text(), ANSWER_CHARS));
      }
    }
    StringBuilder text = new StringBuilder();
    for (int turn = 0; turn < questions.size(); turn++) {
      text.append(turn == 0 ? "" : "\n\n").append("Question ").append(turn + 1)
          .append(questions.get(turn)).append("\nAnswer: ")
          .append(answers.get(turn) == null ? "(none)" : answers.get(turn));
    }
    return text.toString();
  }

  private static String cut(String text, int chars) {
    String oneBlock = text.strip();
    return oneBlock.length() <= chars ? oneBlock : oneBlock.substring(0, chars) + "…";
  }
}
