package dev.agentloop.internal.review;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.run.Conversation;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.internal.resume.ResumeConflictException;
import dev.agentloop.internal.resume.InFlowChanges;
import dev.agentloop.internal.resume.UnknownStepException;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.spin.plugin.variable.SpinValues;

/**
 * The choice of <i>which answer</i> the decision <i>regenerate</i> of the answer review redoes: this
 * one (the default), or an earlier turn's ({@value #TURN}, numbered as {@code GET /api/runs/{id}} numbers
 * {@code turns}), whose later questions, the reviewed one's among them, are asked again on the new branch
 * ({@value #REPLAY}) or dropped. The options come as {@value #OPTIONS}, "Turn 2: the question", for the form's
 * select. {@value #REPLAY} is not prepared: a form that leaves it out shows its checkbox's default, and a
 * completion that sends it is told apart from one that does not (see {@link ReviewFormHandler}). Takes the run
 * as the review read it.
 */
class FormTurnRedo {

  static final String TURN = "regenerateTurn";
  static final String OPTIONS = "regenerateTurnOptions";
  static final String REPLAY = "replayLaterTurns";
  /** The number of the turn under review, as text, which the form compares {@value #TURN} with. */
  static final String REVIEWED = "reviewedTurn";
  /** Of a question in an option's label: a select shows one line. */
  private static final int QUESTION_CHARS = 60;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Supplier<InFlowChanges> changes;
  private final AgentDefinitions definitions;

  /** @param changes supplied late: reviews exist before the engine, the resume service needs it */
  FormTurnRedo(Supplier<InFlowChanges> changes, AgentDefinitions definitions) {
    this.changes = changes;
    this.definitions = definitions;
  }

  void prepare(ReviewTask task, RunState run) {
    List<ConversationTurn> turns = turns(run);
    String reviewed = String.valueOf(turns.size());
    task.put(REVIEWED, reviewed);
    task.put(TURN, reviewed);
    List<Option> options = new ArrayList<>();
    options.add(new Option("This answer (turn " + reviewed + ")", reviewed));
    turns.subList(0, turns.size() - 1).forEach(turn -> options.add(
        new Option("Turn " + turn.number() + ": " + oneLine(turn.question()), String.valueOf(turn.number()))));
    try {
      // a JSON list: Tasklist hands it to the form's select as its options
      task.put(OPTIONS, SpinValues.jsonValue(JSON.writeValueAsString(options)).create());
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write the turns as options", e);
    }
  }

  /**
   * Redoes the earlier turn the reviewer chose, if any: the new branch starts before its answer, the
   * later questions are queued or dropped, and the run's question is that turn's again.
   *
   * @return the earlier turn's answer that is redone, or {@code null} for this answer, which the caller redoes
   * @throws ReviewException when the choice cannot be used; nothing is changed
   */
  Step apply(ReviewTask task, RunState run) {
    boolean replayGiven = task.delegate().hasVariableLocal(REPLAY) && !task.text(REPLAY).isEmpty();
    boolean replay = replayGiven && replay(task.text(REPLAY));
    if (replayGiven && !definitions.settings(task.processDefinitionId()).conversation().enabled()) {
      throw new ReviewException("this agent answers one question per run (conversation=false): it has no later"
          + " questions to ask again; leave " + REPLAY + " out");
    }
    List<ConversationTurn> turns = turns(run);
    int reviewed = turns.size();
    String chosen = task.text(TURN);
    int turn = chosen.isEmpty() ? reviewed : turnNumber(chosen, reviewed);
    if (turn < 1 || turn > reviewed) {
      throw new ReviewException("this run has no turn " + turn + ": its turns are numbered 1 to " + reviewed
          + ", and " + reviewed + " is the answer under review");
    }
    if (turn == reviewed) {
      if (replay) {
        throw new ReviewException("turn " + turn + " is the answer under review: no later questions follow it to ask"
            + " again; choose an earlier turn (" + TURN + "), or leave " + REPLAY + " out");
      }
      return null;
    }
    DelegateExecution execution = task.delegate().getExecution();
    Step redone;
    try {
      redone = changes.get().regenerate(run, turn, replay, execution);
    } catch (UnknownStepException | ResumeConflictException e) {
      throw new ReviewException(e.getMessage());
    }
    return redone;
  }

  private static List<ConversationTurn> turns(RunState run) {
    return Conversation.turns(run.run(), run.questionsAndAnswers(true), null, false);
  }

  /** An option of the form's select, as form-js reads it. */
  private record Option(String label, String value) {}

  private static int turnNumber(String text, int reviewed) {
    try {
      return new BigDecimal(text.strip()).intValueExact();
    } catch (ArithmeticException | NumberFormatException e) {
      throw new ReviewException(TURN + " is the number of the turn to answer again, 1 to " + reviewed + " (" + reviewed
          + " is this answer), not '" + text + "'");
    }
  }

  private static boolean replay(String text) {
    if (!text.equalsIgnoreCase("true") && !text.equalsIgnoreCase("false")) {
      throw new ReviewException(REPLAY + " is true or false, not '" + text + "'");
    }
    return Boolean.parseBoolean(text);
  }

  private static String oneLine(String text) {
    String line = text.strip().replaceAll("\\s+", " ");
    return line.length() > QUESTION_CHARS ? line.substring(0, QUESTION_CHARS - 1) + "…" : line;
  }
}
