package dev.agentloop.internal.agent.loop;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.tool.RemoteInput;
import dev.agentloop.internal.tool.ToolOutcome.FailureKind;
import dev.agentloop.internal.tool.builtin.AskHumanTool;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.internal.trace.step.StepContent;
import dev.agentloop.internal.trace.step.Thought;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The turns AgentLoop takes itself, without the model, when a remote agent asked for input: a call that ended
 * {@code input_required} is followed by a turn of AgentLoop's that asks the run's reviewers the remote agent's
 * question ({@code ask_human}, so the ask-human task and its timer apply), and a person's answer by a turn that sends
 * it to the remote task (a call of the remote agent's tool, so its approval, budget and breaker apply). Each turn's
 * note is the {@link RemoteInput} line, so the next step finds the remote task in the trace. Where the agent may not
 * ask people, where nobody answered in time, or where the run is to give its final answer, the model reads the
 * question and decides. Stateless.
 */
final class RemoteInputs {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String FAILURE = FailureKind.INPUT_REQUIRED.name().toLowerCase(Locale.ROOT);
  private static final int MAX_QUESTION_CHARS = 2000;

  private RemoteInputs() {}

  /** A turn of AgentLoop's own for the newest turn of the path, with the tools it calls; empty: the model thinks. */
  static Optional<List<NewStep>> next(LoopState state, AgentSettings settings) {
    List<Step> recent = state.recent();
    int start = recent.size();
    while (start > 0 && inTurn(recent.get(start - 1).content())) {
      start--;
    }
    List<Step> turn = recent.subList(start, recent.size());
    Step note = start > 0 ? recent.get(start - 1) : null;
    Optional<RemoteInput> asked = turn.stream().map(Step::content)
        .filter(content -> content instanceof Observation o && FAILURE.equals(o.failure()))
        .map(content -> RemoteInput.parse(((Observation) content).error())).flatMap(Optional::stream).findFirst();
    if (asked.isPresent()) {
      return settings.allows(AskHumanTool.NAME) ? Optional.of(ask(asked.get(), state)) : Optional.empty();
    }
    return answered(note, turn).filter(input -> settings.allows(input.input().tool()))
        .map(input -> forward(input.input(), input.answer(), state));
  }

  /** A person's answer to the question of an ask turn of AgentLoop's. */
  private record Answered(RemoteInput input, String answer) {}

  private static Optional<Answered> answered(Step note, List<Step> turn) {
    if (note == null || !Steps.AGENTLOOP.equals(note.author()) || !(note.content() instanceof Thought thought)
        || turn.size() != 2 || !(turn.get(0).content() instanceof Action call) || !AskHumanTool.NAME.equals(call.tool())
        || !(turn.get(1).content() instanceof Observation answer) || answer.isError()) {
      return Optional.empty();
    }
    return RemoteInput.parse(thought.text()).map(input -> new Answered(input, answerOnly(answer.result())));
  }

  private static List<NewStep> ask(RemoteInput input, LoopState state) {
    ObjectNode arguments = JSON.createObjectNode();
    String question = input.question().length() <= MAX_QUESTION_CHARS ? input.question()
        : input.question().substring(0, MAX_QUESTION_CHARS - 1) + "…";
    arguments.putArray("questions").add("Remote agent '" + input.tool() + "' asks: " + question);
    return List.of(new NewStep(new Thought(input.describe()), Steps.AGENTLOOP),
        new NewStep(new Action(callId("remote_input", state), AskHumanTool.NAME, arguments, null), Steps.AGENTLOOP));
  }

  private static List<NewStep> forward(RemoteInput input, String answer, LoopState state) {
    ObjectNode arguments = JSON.createObjectNode().put("message", answer).put("taskId", input.taskId());
    if (!input.contextId().isEmpty()) {
      arguments.put("contextId", input.contextId());
    }
    return List.of(new NewStep(new Thought("A person answered remote agent '" + input.tool() + "' (task "
            + input.taskId() + "); the answer goes to it."), Steps.AGENTLOOP),
        new NewStep(new Action(callId("remote_answer", state), input.tool(), arguments, null), Steps.AGENTLOOP));
  }

  /** The ask-human observation is "Q: …\nA: …": the remote agent asked, so it gets the answer alone. */
  private static String answerOnly(String observed) {
    int answer = observed.indexOf("\nA: ");
    return answer < 0 ? observed : observed.substring(answer + "\nA: ".length()).strip();
  }

  /** Unique in the run: the head step's number is. */
  private static String callId(String prefix, LoopState state) {
    return prefix + "_" + state.headStep().map(Step::stepNo).orElse(0);
  }

  private static boolean inTurn(StepContent content) {
    return content instanceof Action || content instanceof Observation
        || content instanceof dev.agentloop.internal.trace.step.Approvals;
  }
}
