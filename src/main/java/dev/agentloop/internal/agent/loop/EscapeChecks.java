package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.resilience.EscapeException;
import dev.agentloop.internal.resilience.LoopDetector;
import dev.agentloop.internal.resilience.ResilienceMetrics;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.HumanInput;
import dev.agentloop.internal.trace.step.Observation;
import java.util.List;

/**
 * The escape checks of a run at {@code plan}, {@code think} and {@code act}: its budget and loops on its active path.
 * The budget is the run's over all its turns and the runs it called ({@link BudgetCheck}); a run that another agent
 * called is charged to its callers' budgets too ({@link CallerBudgets}). A used-up budget leaves the loop for a person,
 * who may raise it; nothing else lets a run go past it. Loops are looked for in the steps since a person last spoke
 * (guidance, feedback, a retry, a follow-up question), so a person's decision starts the loop detection afresh.
 *
 * <p>A loop found right after calls that brought results does not go to a person at once: the model
 * gets one turn without tools for its final answer (it may have what it needs). A loop found after
 * failures, refusals, or a final-answer turn the model did not use to answer leaves the loop ({@link LoopCheck}).
 * Thread-safe.
 */
public class EscapeChecks {

  private final LoopCheck loops;
  private final RunBudgets budgets;

  public EscapeChecks(LoopDetector detector, BudgetCheck budgets, ToolRegistry tools, ResilienceMetrics metrics) {
    this(detector, budgets, tools, metrics, CallerBudgets.NONE);
  }

  public EscapeChecks(LoopDetector detector, BudgetCheck budgets, ToolRegistry tools, ResilienceMetrics metrics,
      CallerBudgets callers) {
    this.loops = new LoopCheck(detector, tools, metrics);
    this.budgets = new RunBudgets(budgets, callers);
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
    BeforeThink before = loops.check(window, settings, finalAnswerRequest);
    budgets.reserveModelCall(state);
    return before;
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

  /** The current turn's calls were made by a person (a retry in agentStuck), not by the model. */
  private static boolean requestedByAPerson(List<Step> recent) {
    for (int i = recent.size() - 1; i >= 0; i--) {
      if (recent.get(i).kind() == StepKind.THOUGHT) {
        return !recent.get(i).author().equals(Steps.MODEL);
      }
    }
    return false;
  }
}
