package dev.agentloop.internal.resilience;

import dev.agentloop.Runs;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.resume.ResumeConflictException;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;

/**
 * One chaotic conversation, driven as people would: its next question whenever it waits for one, and when its budget
 * is spent, a person's new limit for it (twice at most), until it has asked all its questions or waits in agentStuck
 * for another reason. Not thread-safe: one test thread drives all of them in turn.
 */
final class ChaosChat {

  /** What a person adds to a spent budget each time: another agent's worth of calls. */
  private static final int MORE_MODEL_CALLS = 9;
  private static final int MORE_TOOL_CALLS = 6;
  private static final int MAX_RAISES = 2;

  private final String id;
  private final RunService runs;
  private final Conversations conversations;
  private final ProcessEngine engine;
  private final int turns;
  private int asked = 1;
  private int raised;
  private boolean done;

  ChaosChat(String id, RunService runs, Conversations conversations, ProcessEngine engine, int turns) {
    this.id = id;
    this.runs = runs;
    this.conversations = conversations;
    this.engine = engine;
    this.turns = turns;
  }

  String id() {
    return id;
  }

  int raised() {
    return raised;
  }

  /** Does what a person would do now; whether the conversation is settled. */
  boolean step() {
    if (done) {
      return true;
    }
    RunView view = runs.view(id);
    if (view.waitingFor().contains(RunView.FOLLOW_UP)) {
      if (asked >= turns) {
        done = true;
      } else {
        ask();
      }
    } else if (view.waitingFor().contains(ReactAgentProcess.AGENT_STUCK)) {
      Task task = Runs.awaitTask(engine, id, ReactAgentProcess.AGENT_STUCK);
      if (Escapes.BUDGET_EXHAUSTED.equals(variable(ReactAgentProcess.ESCAPE_CODE.name())) && raised < MAX_RAISES
          && !variable(ReactAgentProcess.ESCAPE_REASON.name()).startsWith("The run-time budget")) {
        raise(task, view);
      } else {
        done = true;
      }
    } else {
      done = view.status().isFinished();
    }
    return done;
  }

  /** How the conversation came to rest. */
  String outcome(RunView view) {
    if (view.waitingFor().contains(RunView.FOLLOW_UP)) {
      return "asked all " + turns + " questions (budget raised " + raised + " times)";
    }
    return view.waitingFor().contains(ReactAgentProcess.AGENT_STUCK)
        ? "waits in agentStuck: " + variable(ReactAgentProcess.ESCAPE_CODE.name()) : view.status().name();
  }

  private void ask() {
    try {
      conversations.ask(id, "chaos: turn " + (asked + 1), "chaos");
      asked++;
    } catch (ResumeConflictException e) {
      // it moved on meanwhile (its idle timer cannot fire in an hour): asked again at the next step
    }
  }

  /** A person raises the spent budget: every limit, so that whichever was spent has room again. */
  private void raise(Task task, RunView view) {
    Runs.submitForm(engine, task, "chaos", Map.of("decision", "guide", "note", "go on with what you have",
        "newMaxModelCalls", view.budgets().modelCalls().limit() + MORE_MODEL_CALLS,
        "newMaxToolCalls", view.budgets().toolCalls().limit() + MORE_TOOL_CALLS,
        "newMaxSteps", 1000L));
    raised++;
  }

  private String variable(String name) {
    Object value = engine.getRuntimeService().getVariable(id, name);
    return value == null ? "" : value.toString();
  }
}
