package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.definition.RevisionsRunOut;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunState;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.resume.InFlowChanges;
import dev.agentloop.internal.trace.step.FollowUp;
import dev.agentloop.internal.trace.step.Plan;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * {@code reviewPlan}: the plan as editable text, one step per line (change, add or remove lines;
 * a leading "1." or "-" is dropped). Accept (an edited plan becomes a plan step
 * authored by the reviewer), revise with feedback (the planner plans again, at most
 * {@code maxPlanRevisions} times, then the agent's {@code whenPlanRevisionsRunOut} applies), or reject.
 */
class PlanReview implements Review {

  /** What the reviewer decided; the gateway after the review takes it. */
  enum Decision { ACCEPT, REVISE, REJECT }

  /** "1.", "2)", "-" or "*" before a step: people number their lists. */
  private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(\\d+[.)]|[-*])\\s+");

  private final Supplier<InFlowChanges> changes;
  private final AgentDefinitions definitions;

  PlanReview(Supplier<InFlowChanges> changes, AgentDefinitions definitions) {
    this.changes = changes;
    this.definitions = definitions;
  }

  @Override
  public void prepare(ReviewTask task, RunState run) {
    List<Step> path = run.activePath();
    task.put("plan", String.join("\n", steps(latestPlan(path))));
    task.put("decision", null);
    task.put("feedback", "");
    task.put("revisionsLeft", Math.max(0, settings(task).review().maxPlanRevisions() - revisionsUsed(path)));
  }

  @Override
  public Decided decide(ReviewTask task, RunState run) {
    Decision decision = task.decision(Decision.class);
    List<Step> path = run.activePath();
    AgentSettings settings = settings(task);
    Step plan = latestPlan(path);
    String reason = task.text("feedback");
    if (decision == Decision.REVISE && revisionsUsed(path) >= settings.review().maxPlanRevisions()) {
      reason = "the plan was sent back " + settings.review().maxPlanRevisions() + " times already";
      decision = settings.review().whenPlanRevisionsRunOut() == RevisionsRunOut.REJECT
          ? Decision.REJECT : Decision.ACCEPT;
    } else if (decision == Decision.REJECT && reason.isEmpty()) {
      reason = "rejected in plan review";
    }
    Decision decided = switch (decision) {
      case ACCEPT -> accept(task, run, plan);
      case REVISE -> revise(task, run);
      case REJECT -> reject(task, run, reason);
    };
    return new Decided(decided, plan.stepNo(), reason);
  }

  private Decision accept(ReviewTask task, RunState run, Step plan) {
    List<String> steps = task.text("plan").lines()
        .map(line -> LIST_MARKER.matcher(line).replaceFirst("").strip())
        .filter(step -> !step.isEmpty())
        .toList();
    if (steps.isEmpty()) {
      throw new ReviewException("the plan needs at least one step");
    }
    if (!steps.equals(steps(plan))) {
      append(run, Steps.plan(steps, task.actor(), "edited in plan review"));
    }
    return Decision.ACCEPT;
  }

  private Decision revise(ReviewTask task, RunState run) {
    if (task.text("feedback").isEmpty()) {
      throw new ReviewException("say in the feedback what the planner should change");
    }
    append(run, Steps.humanInput(task.text("feedback"), task.actor(), "plan feedback"));
    return Decision.REVISE;
  }

  private Decision reject(ReviewTask task, RunState run, String reason) {
    append(run, Steps.humanInput("Rejected: " + reason, task.actor(), "plan rejected"));
    task.delegate().getExecution().setVariables(ReactAgentProcess.STATUS_REASON.transientWith(reason));
    return Decision.REJECT;
  }

  private void append(RunState run, NewStep step) {
    changes.get().append(run, List.of(step));
  }

  private AgentSettings settings(ReviewTask task) {
    return definitions.settings(task.processDefinitionId());
  }

  private static List<String> steps(Step plan) {
    return ((Plan) plan.content()).steps();
  }

  private static Step latestPlan(List<Step> path) {
    return path.stream().filter(step -> step.kind() == StepKind.PLAN).reduce((a, b) -> b)
        .orElseThrow(() -> new IllegalStateException("the run has no plan to review"));
  }

  /** Plans the model wrote after the first one of the current turn: a conversation's turns each plan anew. */
  private static int revisionsUsed(List<Step> path) {
    int turnStart = path.stream().filter(s -> s.content() instanceof FollowUp).mapToInt(Step::stepNo).max().orElse(0);
    return (int) path.stream().filter(s -> s.stepNo() > turnStart && s.kind() == StepKind.PLAN
        && s.author().equals(Steps.MODEL)).count() - 1;
  }
}
