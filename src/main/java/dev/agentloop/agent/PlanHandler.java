package dev.agentloop.agent;

import dev.agentloop.llm.ChatModel;
import dev.agentloop.llm.ModelRequest;
import dev.agentloop.llm.ModelRequest.Purpose;
import dev.agentloop.llm.ModelRequest.RunInfo;
import dev.agentloop.trace.RunRecord;
import dev.agentloop.trace.StepStore;
import dev.agentloop.trace.Usage;
import dev.agentloop.worker.TaskResult;
import dev.agentloop.worker.TopicHandler;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/** Serves {@code agentloop.plan}: asks the model for a plan and writes it as the run's first step. */
class PlanHandler implements TopicHandler {

  private final AgentDefinitions definitions;
  private final StepStore store;
  private final ChatModel model;

  PlanHandler(AgentDefinitions definitions, StepStore store, ChatModel model) {
    this.definitions = definitions;
    this.store = store;
    this.model = model;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_PLAN;
  }

  @Override
  public CompletionStage<TaskResult> handle(LockedExternalTask task, Object carried) {
    AgentSettings settings = definitions.settings(task.getProcessDefinitionId());
    RunRecord run = store.run(task.getProcessInstanceId());
    ModelRequest request = new ModelRequest(Purpose.PLAN, PromptBuilder.forPlanning(run.question(), settings),
        List.of(), new RunInfo(run.runId(), run.question(), 0, 0));
    return model.chat(request).thenApply(reply -> {
      List<String> plan = PlanParser.parse(reply.text());
      if (plan.isEmpty()) {
        throw new IllegalStateException("the model returned no plan: '" + reply.text() + "'");
      }
      Usage usage = Usage.modelCall(reply.tokens());
      LoopState before = new LoopState(run, null, List.of(), false);
      return new TaskResult.Complete(Map.of(), () -> before.advance(
          store.append(run.head(), List.of(Steps.plan(plan, Steps.MODEL)), usage), usage, settings.contextWindowSteps()));
    });
  }
}
