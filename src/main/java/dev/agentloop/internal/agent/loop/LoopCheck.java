package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.EscapeChecks.BeforeThink;
import dev.agentloop.internal.resilience.CallSignature;
import dev.agentloop.internal.resilience.EscapeException.Reason;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.resilience.LoopDetector;
import dev.agentloop.internal.resilience.ResilienceMetrics;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.spi.AgentTool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The loop check of {@link EscapeChecks} before {@code think}: the {@link LoopDetector} reads the window's tool calls
 * with what they got, and the replies refused in their place, and its verdict becomes a warning for the model, a
 * request for its final answer, or the run's escape. A loop found right after calls that brought results gets one
 * turn without tools for the final answer (the model may have what it needs); a loop found after failures, refusals,
 * or a final-answer turn the model did not use to answer leaves the loop. Thread-safe.
 */
final class LoopCheck {

  private static final int DESCRIPTION_CHARS = 200;

  private final LoopDetector detector;
  private final ToolRegistry tools;
  private final ResilienceMetrics metrics;

  LoopCheck(LoopDetector detector, ToolRegistry tools, ResilienceMetrics metrics) {
    this.detector = detector;
    this.tools = tools;
    this.metrics = metrics;
  }

  /**
   * @param window the steps the detector sees: the window since a person last spoke
   * @param finalAnswerRequest why the model must answer now (a budget), or {@code null}; a loop's request is added
   * @throws EscapeException when the loop leaves for a person
   */
  BeforeThink check(List<Step> window, AgentSettings settings, String finalAnswerRequest) {
    LoopDetector.Verdict loop = detector.check(calls(window), settings.limits().loop());
    List<String> warnings = new ArrayList<>();
    if (loop.level() == LoopDetector.Level.LOOP) {
      if (!resultInHand(window)) {
        metrics.loopDetection(loop.pattern(), true);
        throw new EscapeException(Reason.LOOP_DETECTED, "The agent is going round in circles: " + loop.finding()
            + (askedForAnswer(window) ? ", also after a warning and a request for its final answer." : ", also after a warning."));
      }
      // the last calls got their results: the model may well have what it needs, so it answers first
      metrics.loopDetection(loop.pattern(), false);
      String request = "You are going round in circles: " + loop.finding() + ", also after a warning.";
      finalAnswerRequest = finalAnswerRequest == null ? request : finalAnswerRequest + " " + request;
    } else if (loop.level() == LoopDetector.Level.WARNING) {
      metrics.loopDetection(loop.pattern(), false);
      warnings.add("you seem to be going round in circles: " + loop.finding() + ". Do something different, or give"
          + " your final answer. If you go on like this, the run is stopped for a person to look at.");
    }
    return new BeforeThink(finalAnswerRequest, warnings);
  }

  /**
   * Whether the newest turn's calls brought something back: then a loop found now ends in one turn
   * for the final answer before a person is asked. Calls that failed, were refused or not run, and a
   * refused reply, bring nothing.
   */
  private static boolean resultInHand(List<Step> window) {
    for (int i = window.size() - 1; i >= 0 && !window.get(i).kind().equals(StepKind.THOUGHT); i--) {
      Step step = window.get(i);
      if (step.content() instanceof Observation observation && !observation.isError() && observation.ofCall()) {
        return true;
      }
    }
    return false;
  }

  /** Whether the newest turn was offered no tools (a final-answer turn) and called one anyway. */
  private static boolean askedForAnswer(List<Step> window) {
    for (int i = window.size() - 1; i >= 0 && !window.get(i).kind().equals(StepKind.THOUGHT); i--) {
      if (window.get(i).kind() == StepKind.OBSERVATION
          && Observation.NOT_OFFERED.equals(window.get(i).contentAs(Observation.class).failure())) {
        return true;
      }
    }
    return false;
  }

  /** The tool calls of the window with what they got, and the replies refused in their place, oldest first. */
  private List<LoopDetector.Call> calls(List<Step> window) {
    Map<String, Observation> observed = new HashMap<>();
    window.stream().filter(step -> step.kind() == StepKind.OBSERVATION).map(step -> step.contentAs(Observation.class))
        .filter(observation -> observation.callId() != null)
        .forEach(observation -> observed.put(observation.callId(), observation));
    List<LoopDetector.Call> calls = new ArrayList<>();
    for (Step step : window) {
      if (step.content() instanceof Observation observation && !observation.ofCall() && observation.isError()) {
        if (!Observation.INVALID_ANSWER.equals(observation.failure())) {
          // an answer that broke the schema has a budget of its own (maxAnswerRepairs), not the loop limits
          calls.add(LoopDetector.Call.refusedReply(observation.error()));
        }
      } else if (step.kind() == StepKind.ACTION) {
        Action action = step.contentAs(Action.class);
        boolean ignoreCase = tools.find(action.tool()).map(AgentTool::caseInsensitiveArguments).orElse(false);
        calls.add(new LoopDetector.Call(action.tool(),
            CallSignature.of(action.tool(), action.arguments(), action.rawArguments(), ignoreCase),
            describe(action), failure(observed.get(action.callId()))));
      }
    }
    return calls;
  }

  /**
   * The error a call got; calls AgentLoop did not run or refused unrun, or that a breaker refused, are
   * no failures of the tool (a refused call repeated is still a repeat).
   */
  private static String failure(Observation observation) {
    if (observation == null || !observation.isError() || Observation.NOT_RUN.equals(observation.failure())
        || Observation.NOT_OFFERED.equals(observation.failure()) || Observation.UNAVAILABLE.equals(observation.failure())) {
      return null;
    }
    return observation.error();
  }

  private static String describe(Action action) {
    String text = action.tool() + " " + action.argumentsText();
    return text.length() <= DESCRIPTION_CHARS ? text : text.substring(0, DESCRIPTION_CHARS) + "[…]";
  }
}
