package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.worker.TaskResult;
import dev.agentloop.internal.worker.TopicHandler;
import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves {@code agentloop.think}: the model takes its turn ({@link Thinking}) and what it answered
 * (thought and tool calls, or a final answer) is written with the completion; or the run leaves its
 * loop by a BPMN error, when a budget is used up, the agent goes round in circles, or the model's reply
 * was cut at its output limit.
 */
public class ThinkHandler implements TopicHandler<LoopState> {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final Thinking thinking;
  private final TaskOutcomes completions;

  public ThinkHandler(AgentDefinitions definitions, LoopStateReader reader, Thinking thinking, TaskOutcomes completions) {
    this.definitions = definitions;
    this.reader = reader;
    this.thinking = thinking;
    this.completions = completions;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_THINK;
  }

  @Override
  public CompletionStage<TaskResult<LoopState>> handle(LockedExternalTask task, LoopState carried) {
    AgentSettings agent = definitions.settings(task.getProcessDefinitionId());
    LoopState state = reader.read(task, carried, agent.pathStepsToRead());
    AgentSettings settings = agent.forRun(state.run().answerSchema());
    return thinking.think(state, settings).thenApply(outcome -> outcome.escape() == null
        ? completions.complete(state, outcome.written(), outcome.variables(), settings)
        : completions.escape(task, topic(), outcome.escape(), state, outcome.written(), settings));
  }
}
