package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.resilience.CallSignature;
import dev.agentloop.internal.resilience.EscapeException.Reason;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.resilience.LoopDetector;
import dev.agentloop.internal.resilience.ResilienceMetrics;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import dev.agentloop.spi.AgentTool;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The escape checks of a run at {@code plan}, {@code think} and {@code act}: its budget and loops on its active path.
 * The budget is the run's over all its turns and the runs it called ({@link BudgetCheck}); a run that another agent
 * called is charged to its callers' budgets too ({@link CallerBudgets}). A used-up budget leaves the loop for a person,
 * who may raise it; nothing else lets a run go past it. Loops are looked for in the steps since a person last spoke
 * (guidance, feedback, a retry, a follow-up question), so a person's decision starts the loop detection afresh.
 *
 * <p>A loop found right after calls that brought results does not go to a person at once: the model
 * gets one turn without tools for its final answer (it may have what it needs). A loop found after
 * failures, refusals, or a final-answer turn the model did not use to answer leaves the loop. Thread-safe.
 */
public class EscapeChecks {

  private static final int DESCRIPTION_CHARS = 200;

  private final LoopDetector detector;
  private final RunBudgets budgets;
  private final ToolRegistry tools;
  private final ResilienceMetrics metrics;

  public EscapeChecks(LoopDetector detector, BudgetCheck budgets, ToolRegistry tools, ResilienceMetrics metrics) {
    this(detector, budgets, tools, metrics, CallerBudgets.NONE);
  }

  public EscapeChecks(LoopDetector detector, BudgetCheck budgets, ToolRegistry tools, ResilienceMetrics metrics,
      CallerBudgets callers) {
    this.detector = detector;
    this.budgets = new RunBudgets(budgets, callers);
    this.tools = tools;
    this.metrics = metrics;
  }

  /**
   * What the next model call must know.
   *
   * @param finalAnswerRequest why the model must answer now, or {@code null}
   * @param warnings for the model, e.g. about a loop it seems to be in
   */
  public record BeforeThink(String finalAnswerRequest, List<String> warnings) {}

  /**
   * Before the model is called in {@code think}; the call is charged to the run's callers, if any, when no escape is
   * thrown.
   *
   * @throws EscapeException when the run must leave its loop instead of calling the model
   */
  public BeforeThink beforeThink(LoopState state, AgentSettings settings) {
    // the loop detector sees the window of steps, also when a context budget has the whole path read
    List<Step> window = sinceAPersonSpoke(state.latest(settings.prompt().contextWindowSteps()));
    String finalAnswerRequest = budgets.beforeThink(state, settings);
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
    budgets.reserveModelCall(state);
    return new BeforeThink(finalAnswerRequest, warnings);
  }

  /** Before the model is asked for a plan: see {@link RunBudgets#beforePlan}. */
  boolean beforePlan(LoopState state, AgentSettings settings) {
    return budgets.beforePlan(state, settings);
  }

  /** A model call charged to the run's callers was not made: the model failed before it answered. */
  void modelCallFailed(LoopState state) {
    budgets.modelCallFailed(state);
  }

  /** Tool calls charged to the run's callers that did not run after all. */
  void toolCallsNotRun(LoopState state, int count) {
    budgets.toolCallsNotRun(state, count);
  }

  /** What a run's reply or its calls spent that its callers were not charged before. */
  void charge(RunRecord run, int toolCalls, long tokens) {
    budgets.charge(run, toolCalls, tokens);
  }

  /**
   * @param calls how many tool calls of the turn are still to run, here or elsewhere (remote workers, other agents)
   * @param runNow how many of them run now, here: charged to the run's callers
   * @throws EscapeException when they would go past the tool-call budget, unless a person asked for them
   */
  void beforeToolCalls(LoopState state, AgentSettings settings, int calls, int runNow) {
    budgets.beforeToolCalls(state, settings, calls, runNow, requestedByAPerson(state.recent()));
  }

  /**
   * Whether the model was told before (since a person last spoke) that this tool is unavailable, and
   * called it again all the same.
   */
  boolean toldBefore(LoopState state, String tool) {
    return sinceAPersonSpoke(state.recent()).stream()
        .filter(step -> step.kind() == StepKind.OBSERVATION)
        .map(step -> step.contentAs(Observation.class))
        .anyMatch(observation -> tool.equals(observation.tool())
            && Observation.UNAVAILABLE.equals(observation.failure()));
  }

  /**
   * The steps after a person last spoke — a note or a follow-up question (not an approval) or an edited step, which
   * supersedes another — or all recent steps when there is none.
   */
  static List<Step> sinceAPersonSpoke(List<Step> recent) {
    for (int i = recent.size() - 1; i >= 0; i--) {
      Step step = recent.get(i);
      if (step.content() instanceof HumanInput || step.content() instanceof FollowUp || step.supersedes() != null) {
        return recent.subList(i + 1, recent.size());
      }
    }
    return recent;
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

  /** The current turn's calls were made by a person (a retry in agentStuck), not by the model. */
  private static boolean requestedByAPerson(List<Step> recent) {
    for (int i = recent.size() - 1; i >= 0; i--) {
      if (recent.get(i).kind() == StepKind.THOUGHT) {
        return !recent.get(i).author().equals(Steps.MODEL);
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
