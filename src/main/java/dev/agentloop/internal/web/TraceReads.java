package dev.agentloop.internal.web;

import dev.agentloop.internal.agent.run.RunPricing;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.resume.UnknownStepException;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.SentPrompt;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.StepCost;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A run's trace as the API shows it — each step with what its call cost, its price and whether its prompt can be
 * read — and the prompt of one step. Checks no access: its controller has shown the run readable first.
 */
final class TraceReads {

  private final RunService runs;
  private final RunInsights insights;
  private final ModelPrices prices;

  TraceReads(RunService runs, RunInsights insights, ModelPrices prices) {
    this.runs = runs;
    this.insights = insights;
    this.prices = prices;
  }

  /** @param branches {@code active} (the path the model sees) or {@code all} */
  TraceView trace(String id, String branches) {
    // the steps first: a step read is committed, and so are the cost and prompt written with it, which
    // the reads after it see; read before the steps, they could miss a step committed in between
    List<Step> steps = runs.trace(id, branches.equals("all"));
    Map<Integer, StepCost> costs = insights.costs(id);
    Set<Integer> prompts = insights.stepsWithPrompt(id);
    return new TraceView(id, branches, steps.stream()
        .map(step -> StepView.of(step, costs.get(step.stepNo()),
            RunPricing.ofStep(costs.get(step.stepNo()), prices).orElse(null), prompts.contains(step.stepNo()))).toList(),
        runs.decisions(id));
  }

  /** The messages and tools the model received in the call that wrote step {@code no}. */
  PromptView prompt(String id, int no) {
    SentPrompt prompt = insights.prompt(id, no).orElseThrow(() -> runs.trace(id, true).stream()
        .anyMatch(step -> step.stepNo() == no)
        ? new NoPromptException("step " + no + " of run " + id + " has no stored prompt: only the first step a model"
            + " call wrote (a plan, a thought or a final answer) has one, and not in runs or steps copied from another run")
        : new UnknownStepException("run " + id + " has no step " + no));
    return new PromptView(id, no, prompt.purpose(), prompt.messages(), prompt.tools());
  }
}
