package dev.agentloop.internal.agent.loop;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.Steps;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.loop.TaskOutcomes.Written;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelRequest.Purpose;
import dev.agentloop.spi.ModelRequest.RunInfo;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.internal.trace.NewStep;
import dev.agentloop.internal.worker.TaskResult;
import dev.agentloop.internal.worker.TopicHandler;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;

/**
 * Serves {@code agentloop.plan}: asks the model for a plan (or a revised one, with the reviewer's
 * feedback on the previous plan) and writes it as a PLAN step. The plan goes to review unless the
 * agent accepts plans automatically. A reasoning model's thinking is kept beside the plan's steps,
 * never in them; a reply with reasoning and no plan fails the task (retries, then an incident). So does a
 * plan cut at the output limit, which is never used: the incident says which limit to raise. A run whose budget has
 * no room for the call (a conversation's later turn, or a run whose caller's budget is spent) is not planned: it
 * goes on to its loop without a plan, where its first {@code think} leaves for a person.
 */
public class PlanHandler implements TopicHandler<LoopState> {

  private final AgentDefinitions definitions;
  private final LoopStateReader reader;
  private final ChatModel model;
  private final EscapeChecks checks;
  private final TaskOutcomes completions;

  public PlanHandler(AgentDefinitions definitions, LoopStateReader reader, ChatModel model, EscapeChecks checks,
      TaskOutcomes completions) {
    this.definitions = definitions;
    this.reader = reader;
    this.model = model;
    this.checks = checks;
    this.completions = completions;
  }

  @Override
  public String topic() {
    return ReactAgentProcess.TOPIC_PLAN;
  }

  @Override
  public CompletionStage<TaskResult<LoopState>> handle(LockedExternalTask task, LoopState carried) {
    AgentSettings settings = definitions.settings(task.getProcessDefinitionId());
    LoopState state = reader.read(task, carried, settings.pathStepsToRead());
    if (!checks.beforePlan(state, settings)) {
      // no room for the call: the loop's first think leaves for agentStuck, where a person sees why
      return CompletableFuture.completedFuture(completions.complete(state, Written.NOTHING,
          ReviewGate.of(true).asVariable(), settings));
    }
    ModelRequest request = new ModelRequest(Purpose.PLAN, PromptBuilder.forPlanning(state, settings), List.of(),
        new RunInfo(state.run().runId(), state.question(), 0, 0));
    long started = CallCosts.start();
    return model.chat(request).whenComplete((reply, failure) -> {
      if (failure != null) {
        checks.modelCallFailed(state);
      }
    }).thenApply(reply -> {
      if (reply.stop().cut()) {
        // a plan cut mid-step would pass for a shorter one; plan runs before the loop, so no escape catches it
        throw new ModelCallException(reply.stop().cutMessage(), false, 0, null);
      }
      List<String> plan = PlanParser.parse(reply.text());
      if (plan.isEmpty()) {
        throw new IllegalStateException(reply.text().isBlank() && !reply.reasoning().isBlank()
            ? "the model returned only its reasoning (" + reply.reasoning().length() + " characters) and no plan"
            : "the model returned no plan: '" + reply.text() + "'");
      }
      NewStep step = Steps.modelPlan(plan, ReplyInterpreter.kept(reply.reasoning(), settings.prompt().maxStepChars()),
          reply.stop().value());
      return completions.complete(state, new Written(List.of(step), CallCosts.modelCall(request, reply, started),
              settings.review().autoAcceptPlan() ? AgentSettings.AUTO_ACCEPT_PLAN : null),
          ReviewGate.of(settings.review().autoAcceptPlan()).asVariable(), settings);
    });
  }
}
