package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.compose.AnswersIn;
import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.resilience.BreakerView;
import dev.agentloop.internal.resilience.Breakers;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.resume.InFlowChanges;
import dev.agentloop.internal.trace.Usage;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * {@code agentStuck}: a run left its agent loop (a loop, a used-up budget, a tool that stays
 * unavailable, or the loop's run time). The form shows why ({@code reason}), the last steps of the
 * active path ({@code lastSteps}), the calls the agent asked for last with what became of them
 * ({@code lastCalls}, also when the last steps are all observations), what the run and the agents it called used of
 * its budget ({@code budget}), what guide and retry do now ({@code decisionHelp}), and the circuit breakers of the
 * model endpoints and of the tools this agent may use ({@code breakers}). A person chooses:
 * <ul>
 *   <li>{@code guide}: a note for the model ({@code note}, required); the agent thinks again with it; on a used-up
 *       budget only with a new limit for it ({@link StuckBudget}), which holds for the rest of the run;
 *   <li>{@code retry}: the tool calls of the last turn that had some run again, as a turn of the person's (on a
 *       used-up budget, with a new limit too);
 *   <li>{@code edit}: a step of the path is edited and the run continues from it ({@link FormStepEdit});
 *   <li>{@code stop}: the run ends STOPPED with the reason (and the note, if any).
 * </ul>
 * When the task is created, every tool call of the path still without an observation gets one: the answer of the
 * agent it called when that run had answered before the call was cancelled, else that it was not run; so no run ever
 * ends with a call left open, and no answer already in is thrown away.
 */
class AgentStuckReview implements Review {

  /** What the person decided; the gateway after the task takes it. */
  enum Decision { GUIDE, RETRY, EDIT, STOP }
  private static final int LAST_STEPS = 12;
  private static final int CALL_CHARS = 300;

  private final Supplier<InFlowChanges> changes;
  private final CallsForPeople calls;
  private final Breakers breakers;
  private final FormStepEdit stepEdit;
  private final AgentDefinitions definitions;
  private final StuckBudget budget;
  private final ChildRuns agentCalls;

  AgentStuckReview(Supplier<InFlowChanges> changes, CallsForPeople calls, Breakers breakers, FormStepEdit stepEdit,
      AgentDefinitions definitions, BudgetCheck budgets, ChildRuns agentCalls) {
    this.changes = changes;
    this.calls = calls;
    this.breakers = breakers;
    this.stepEdit = stepEdit;
    this.definitions = definitions;
    this.budget = new StuckBudget(changes, budgets);
    this.agentCalls = agentCalls;
  }

  @Override
  public void prepare(ReviewTask task, RunState read) {
    String why = why(task);
    AgentSettings settings = definitions.settings(task.processDefinitionId());
    RunState run = closeOpenCalls(task, read, why, settings);
    task.put("reason", why);
    List<Step> path = run.activePath();
    task.putShown("lastSteps", PathText.lines(path.subList(Math.max(0, path.size() - LAST_STEPS), path.size())), true);
    task.putShown("lastCalls", lastCallsText(path), false);
    budget.prepare(task, run.run(), settings);
    task.put("breakers", breakerStates(settings));
    task.put("decision", null);
    task.put("note", "");
    stepEdit.prepare(task, run);
  }

  @Override
  public Decided decide(ReviewTask task, RunState run) {
    Decision decision = task.decision(Decision.class);
    String note = task.text("note");
    String code = code(task);
    switch (decision) {
      case GUIDE -> {
        if (note.isEmpty()) {
          throw new ReviewException("write the note the agent should go on with");
        }
        budget.raise(task, run.run(), definitions.settings(task.processDefinitionId()));
        changes.get().append(run, List.of(Steps.humanInput(note, task.actor(), "guidance after " + code)));
      }
      case RETRY -> {
        List<Action> last = lastCalls(run.activePath());
        if (last.isEmpty()) {
          throw new ReviewException("the run has made no tool call that could be run again; choose guide or stop");
        }
        budget.raise(task, run.run(), definitions.settings(task.processDefinitionId()));
        String request = "Run again: " + last.stream().map(a -> a.tool() + " " + a.argumentsText())
            .collect(Collectors.joining("; ")) + (note.isEmpty() ? "" : "\n" + note);
        changes.get().append(run, Steps.retry(last, request, task.actor(), "retry after " + code,
            "retry" + run.head().stepCount()));
      }
      case EDIT -> stepEdit.apply(task, run, "edited after " + code);
      case STOP -> {
        String reason = "stopped by " + task.actor() + ": " + why(task) + (note.isEmpty() ? "" : " " + note);
        changes.get().append(run, List.of(Steps.humanInput("Stopped: " + why(task) + (note.isEmpty() ? "" : " " + note),
            task.actor(), "stopped after " + code)));
        task.delegate().getExecution().setVariables(ReactAgentProcess.STATUS_REASON.transientWith(reason));
      }
    }
    return new Decided(decision, run.head().headStep(), note);
  }

  /**
   * @return the run with the observations written, what the form shows: a call of an agent whose run answered before
   *     the call was cancelled observes that answer ({@link ReactAgentProcess#ANSWERS_IN}), any other says it was not run
   */
  private RunState closeOpenCalls(ReviewTask task, RunState run, String why, AgentSettings settings) {
    List<Action> open = calls.of(run);
    Map<String, String> answered = AnswersIn.read(ReactAgentProcess.ANSWERS_IN.get(task.delegate().getExecution()));
    if (!answered.isEmpty()) {
      task.delegate().getExecution().removeVariable(ReactAgentProcess.ANSWERS_IN.name());
    }
    if (open.isEmpty()) {
      return run;
    }
    List<NewStep> observations = open.stream().map(action -> answered.containsKey(action.callId())
        ? new NewStep(agentCalls.observationOf(Observation.error(action, "not yet answered"),
            answered.get(action.callId()), settings), action.tool())
        : Steps.observation(Observation.error(action, "no result: the run left its agent loop before this call was"
            + " done (" + why + ")", Observation.NOT_RUN), Steps.AGENTLOOP)).toList();
    // a call of an agent that answered counts as one tool call of this run, as when its answer is observed in the loop
    int answeredCalls = (int) open.stream().filter(action -> answered.containsKey(action.callId())).count();
    return changes.get().append(run, observations, new Usage(0, answeredCalls, 0));
  }

  /** The tool calls of the newest turn that made some, in their order. */
  static List<Action> lastCalls(List<Step> path) {
    Step last = path.stream().filter(step -> step.kind() == StepKind.ACTION).reduce((a, b) -> b).orElse(null);
    if (last == null) {
      return List.of();
    }
    return path.stream().filter(step -> step.kind() == StepKind.ACTION && step.turn() == last.turn())
        .map(step -> step.contentAs(Action.class)).toList();
  }

  private static String code(ReviewTask task) {
    String code = ReactAgentProcess.ESCAPE_CODE.get(task.delegate().getExecution());
    return code == null ? "an escape" : code;
  }

  private static String why(ReviewTask task) {
    String reason = ReactAgentProcess.ESCAPE_REASON.get(task.delegate().getExecution());
    return code(task) + ": " + (reason == null || reason.isBlank() ? "(no reason given)" : reason);
  }

  /** The newest calls, one line each, with what became of them: the model's request, whatever came after. */
  static String lastCallsText(List<Step> path) {
    List<Action> last = lastCalls(path);
    if (last.isEmpty()) {
      return "The agent has made no tool call.";
    }
    Map<String, Observation> observed = new HashMap<>();
    path.stream().filter(step -> step.kind() == StepKind.OBSERVATION).map(step -> step.contentAs(Observation.class))
        .filter(observation -> observation.callId() != null).forEach(o -> observed.put(o.callId(), o));
    return last.stream().map(action -> {
      Observation observation = observed.get(action.callId());
      String line = action.tool() + " " + action.argumentsText() + " → "
          + (observation == null ? "no result yet" : observation.text().replace('\n', ' '));
      return line.length() > CALL_CHARS ? line.substring(0, CALL_CHARS) + "…" : line;
    }).collect(Collectors.joining("\n"));
  }

  /** The model endpoints' breakers and those of the tools this agent may use; those not closed first. */
  private String breakerStates(AgentSettings settings) {
    return breakers.states().stream()
        .filter(view -> !"tool".equals(view.kind()) || settings.allows(view.target()))
        .sorted(Comparator.comparing(BreakerView::closed).thenComparing(BreakerView::name))
        .map(view -> view.name() + ": " + view.state())
        .collect(Collectors.joining("\n"));
  }
}
