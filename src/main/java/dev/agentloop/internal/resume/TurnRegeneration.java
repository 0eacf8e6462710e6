package dev.agentloop.internal.resume;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.Conversation;
import dev.agentloop.internal.agent.run.ReplayQueue;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepStore;
import dev.agentloop.internal.trace.step.FollowUp;
import java.util.List;
import org.camunda.bpm.engine.RuntimeService;
import org.camunda.bpm.engine.delegate.VariableScope;

/** Which answer a regenerated turn replaces, and the questions of the turns after it. */
final class TurnRegeneration {

  private TurnRegeneration() {}

  /**
   * @param answer the turn's answer on the active path: the new branch starts from the step before it
   * @param question the turn's question, which the run's reviews are headed by again
   * @param later the questions of the later turns, oldest first, with who asked them
   */
  record Target(Step answer, String question, List<ReplayQueue.Question> later) {}

  /**
   * @throws UnknownStepException when the run has no turn {@code number}
   * @throws ResumeConflictException when the turn has no answer yet
   */
  static Target target(RunState run, int number) {
    List<ConversationTurn> turns = Conversation.turns(run.run(), run.questionsAndAnswers(true), null, false);
    if (number < 1 || number > turns.size()) {
      throw new UnknownStepException("run " + run.runId() + " has no turn " + number + ": it has "
          + turns.size() + (turns.size() == 1 ? " turn" : " turns") + ", numbered from 1");
    }
    ConversationTurn turn = turns.get(number - 1);
    if (turn.answerStep() == null) {
      throw new ResumeConflictException("turn " + number + " of run " + run.runId() + " has no answer to regenerate"
          + " yet; the agent is still working on it");
    }
    Step answer = run.step(turn.answerStep()).orElseThrow();
    List<ReplayQueue.Question> later = turns.subList(number, turns.size()).stream()
        .map(next -> new ReplayQueue.Question(next.question(), next.askedBy() == null ? "unknown" : next.askedBy()))
        .toList();
    return new Target(answer, turn.question(), later);
  }

  /**
   * The follow-up questions among the steps an edit of {@code edited} took off the path, oldest first,
   * the edited step itself left out: the later turns the edit may ask again.
   */
  static List<ReplayQueue.Question> laterQuestions(RunState state, Step edited, List<Integer> superseded) {
    java.util.Set<Integer> off = new java.util.HashSet<>(superseded);
    off.remove(edited.stepNo());
    return state.questionsAndAnswers(false).stream()
        .filter(step -> off.contains(step.stepNo()) && step.content() instanceof FollowUp)
        .map(step -> new ReplayQueue.Question(((FollowUp) step.content()).text(), step.author()))
        .toList();
  }

  /** Sets (or, with none, removes) the questions the conversation asks again after the regenerated turn. */
  static void queue(RuntimeService runtime, String runId, List<ReplayQueue.Question> questions) {
    if (questions.isEmpty()) {
      runtime.removeVariable(runId, ReactAgentProcess.REPLAY_QUESTIONS.name());
    } else {
      runtime.setVariable(runId, ReactAgentProcess.REPLAY_QUESTIONS.name(), ReplayQueue.write(questions));
    }
  }

  /** As {@link #queue(RuntimeService, String, List)}, on an execution of the run, inside a command that runs. */
  static void queue(VariableScope execution, List<ReplayQueue.Question> questions) {
    if (questions.isEmpty()) {
      execution.removeVariable(ReactAgentProcess.REPLAY_QUESTIONS.name());
    } else {
      ReactAgentProcess.REPLAY_QUESTIONS.set(execution, ReplayQueue.write(questions));
    }
  }
}
