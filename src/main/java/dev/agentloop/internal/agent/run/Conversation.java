package dev.agentloop.internal.agent.run;

import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunCosts;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.FinalAnswer;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The turns of a run read from the questions and answers of one path of its trace (root first):
 * the run's question opens turn 1, each follow-up step the next. A turn's answer is the newest final
 * answer before the next question. Every turn but the last has an accepted answer, as a follow-up is
 * only taken after one; the last turn's answer is accepted once the run waits for a follow-up or has
 * ended answered.
 */
public final class Conversation {

  private Conversation() {}

  /**
   * @param path the follow-ups and final answers of the active path, root first
   *     ({@link dev.agentloop.internal.trace.StepStore#questionsAndAnswers})
   * @param startedBy who asked the run's question, or {@code null}
   * @param lastAccepted whether the newest answer is accepted: the run waits for a follow-up or ended answered
   */
  public static List<ConversationTurn> turns(RunRecord run, List<Step> path, String startedBy, boolean lastAccepted) {
    return turns(run, path, startedBy, lastAccepted, Map.of());
  }

  /**
   * The turns with what each cost.
   *
   * @param costs by turn number ({@link dev.agentloop.internal.trace.RunInsights#turnCosts}); a turn missing: no call
   */
  public static List<ConversationTurn> turns(RunRecord run, List<Step> path, String startedBy, boolean lastAccepted,
      Map<Integer, RunCosts> costs) {
    List<Opened> opened = new ArrayList<>();
    opened.add(new Opened(run.question(), startedBy, null));
    for (Step step : path) {
      if (step.content() instanceof FollowUp question) {
        opened.add(new Opened(question.text(), step.author(), step.stepNo()));
      } else if (step.kind() == StepKind.FINAL_ANSWER) {
        opened.get(opened.size() - 1).answer = step;
      }
    }
    List<ConversationTurn> turns = new ArrayList<>(opened.size());
    for (int i = 0; i < opened.size(); i++) {
      Opened turn = opened.get(i);
      boolean last = i == opened.size() - 1;
      ConversationTurn.Status status = !last || (lastAccepted && turn.answer != null)
          ? ConversationTurn.Status.ANSWERED
          : run.status().isFinished() ? ConversationTurn.Status.UNANSWERED : ConversationTurn.Status.IN_PROGRESS;
      turns.add(new ConversationTurn(i + 1, turn.question,
          turn.answer == null ? null : ((FinalAnswer) turn.answer.content()).text(), status, turn.askedBy,
          turn.questionStep, turn.answer == null ? null : turn.answer.stepNo(), costs.get(i + 1)));
    }
    return turns;
  }

  /** Whether an ended run's last answer counts as accepted. */
  static boolean acceptedAtEnd(RunStatus status) {
    return status == RunStatus.ANSWERED;
  }

  private static final class Opened {
    private final String question;
    private final String askedBy;
    private final Integer questionStep;
    private Step answer;

    private Opened(String question, String askedBy, Integer questionStep) {
      this.question = question;
      this.askedBy = askedBy;
      this.questionStep = questionStep;
    }
  }
}
