package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.worker.TaskResult;
import dev.agentloop.internal.worker.TopicHandler;
import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves {@code agentloop.act}: the turn's open tool calls run ({@link CallDispatcher}) and their
 * observations are written with the completion; the run leaves its loop instead where the calls
 * would go past a budget or call a tool that was reported unavailable before. The diagram then
 * goes to {@code callRemoteTool} when calls of remote tools wait, to {@code callAgent} (with the ids of the calls)
 * when calls of agents wait, else to think.
 */
public class ActHandler implements TopicHandler<LoopState> {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final CallDispatcher calls;
  private final TaskOutcomes completions;

  public ActHandler(AgentDefinitions definitions, LoopStateReader reader, CallDispatcher calls, TaskOutcomes completions) {
    this.definitions = definitions;
    this.reader = reader;
    this.calls = calls;
    this.completions = completions;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_ACT;
  }

  @Override
  public CompletionStage<TaskResult<LoopState>> handle(LockedExternalTask task, LoopState carried) {
    AgentSettings settings = definitions.settings(task.getProcessDefinitionId());
    LoopState state = reader.read(task, carried, settings.pathStepsToRead());
    return calls.run(state, settings).thenApply(acted -> acted.escape() == null
        ? completions.complete(state, acted.written(), acted.variables(), settings)
        : completions.escape(task, topic(), acted.escape(), state, acted.written(), settings));
  }
}
