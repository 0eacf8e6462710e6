package dev.agentloop.internal.agent;

import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.LoopState;
import dev.agentloop.internal.agent.loop.LoopStateReader;
import dev.agentloop.internal.agent.loop.PromptBuilder;
import dev.agentloop.api.RunStatus;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolSpec;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.trace.RunHead;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.step.Action;
import dev.agentloop.internal.trace.step.Observation;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * A run's active path built turn by turn as the handlers write it, and the think request AgentLoop
 * makes of it: for tests outside this package (the token cost benchmark) that send real prompts
 * without the engine. Not thread-safe.
 */
public final class PromptFixture {

  private static final String RUN_ID = "run-1";

  private final String question;
  private final Step plan;
  private final List<NewStep> written = new ArrayList<>();

  public PromptFixture(String question, List<String> plan) {
    this.question = question;
    this.plan = Steps.plan(plan, Steps.MODEL).at(RUN_ID, 1, null, 0, Instant.EPOCH);
  }

  /** A model turn: its thought, one call and the call's result. */
  public void addTurn(String thought, Action call, Observation result) {
    written.add(Steps.thought(thought));
    written.add(Steps.action(call));
    written.add(Steps.observation(result, call.tool()));
  }

  /** The request of the next think task, with the prompt's stable prefix. */
  public ModelRequest thinkRequest(AgentSettings settings, List<ToolSpec> tools, ToIntFunction<String> tokens) {
    List<Step> path = new ArrayList<>();
    int turn = 0;
    for (NewStep step : written) {
      if (step.kind() == StepKind.THOUGHT) {
        turn++;
      }
      int no = path.size() + 2;
      path.add(step.at(RUN_ID, no, no - 1, turn, Instant.EPOCH));
    }
    // the reader's window: without a budget, the latest steps alone, as LoopStateReader reads them
    boolean truncated = !settings.prompt().compacts() && path.size() > settings.prompt().contextWindowSteps();
    if (truncated) {
      path = path.subList(path.size() - settings.prompt().contextWindowSteps(), path.size());
    }
    int head = written.size() + 1;
    RunRecord run = new RunRecord(RUN_ID, "agent", question, RunStatus.RUNNING, null,
        new RunHead(RUN_ID, 1, head, turn, head), 0, 0, 0, Instant.EPOCH, null, null);
    PromptBuilder.Prompt prompt = PromptBuilder.thinking(new LoopState(run, plan, path, truncated), settings, null,
        List.of(), tokens);
    return new ModelRequest(ModelRequest.Purpose.THINK, prompt.messages(), tools,
        new ModelRequest.RunInfo(RUN_ID, question, turn + 1, 0), prompt.stable());
  }
}
