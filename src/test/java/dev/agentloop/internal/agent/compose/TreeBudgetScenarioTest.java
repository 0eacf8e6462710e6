package dev.agentloop.internal.agent.compose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ModelCalls;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.BudgetUse;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.trace.RunRecord;
import dev.agentloop.internal.trace.StepStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.history.HistoricProcessInstance;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A coordinator's budget bounds its tree: it calls four children at once on a budget of 10 model and 10 tool calls,
 * three of which loop (a new calculation every turn, so that no loop detection stops them) and one of which never
 * answers while it matters. Their calls count against the coordinator's budget as they make them; when it is spent,
 * the child that asks for more does not get it, the coordinator goes to agentStuck naming that child, and every
 * child stops, saying why. The model received exactly the calls the runs counted, and a person's new limit lets the
 * coordinator go on.
 */
@AgentLoopTest
class TreeBudgetScenarioTest {

  static final String CHILD = "tree-child-agent";
  private static final String COORDINATOR = "tree-coordinator-agent";
  private static final int MODEL_CALLS = 10;
  private static final int TOOL_CALLS = 10;

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) {
    TestAgent.deployVariant(engine, CHILD, Map.of(AgentSettings.ALLOWED_TOOLS, "calculator, noop, crm_lookup",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, COORDINATOR, Map.of(AgentSettings.ALLOWED_TOOLS, CHILD,
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true",
        AgentSettings.MAX_MODEL_CALLS, String.valueOf(MODEL_CALLS), AgentSettings.MAX_TOOL_CALLS,
        String.valueOf(TOOL_CALLS)));
  }

  @Test
  void should_keep_a_coordinator_and_its_looping_children_within_its_budget_and_stop_them_all_when_it_is_spent() {
    // given a child whose model does not answer until the test lets it
    ModelCalls.hold("quiet-child: never answers");

    // when the coordinator asks four children at once, three of which loop
    String run = runs.start(COORDINATOR, "tree-budget: spend it");

    // then it goes to agentStuck, naming the child that asked for more than its budget had left
    Task stuck = Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
    String reason = (String) engine.getTaskService().getVariable(stuck.getId(), ReactAgentProcess.ESCAPE_REASON.name());
    assertThat(reason).startsWith("The budget of this run and the agents it called is used up: all 10 model calls"
        + " were made (8 of them by the agents it called); the last call was asked for by " + CHILD + " (run ");
    List<String> children = children(run);
    assertThat(children).hasSize(4).anyMatch(child -> reason.contains("(run " + child + ")"));
    // every child stopped with it, saying why in words, and none calls any more
    await().atMost(Runs.PATIENCE).until(() -> children.stream().allMatch(c -> store.run(c).status().isFinished()));
    assertThat(children).allSatisfy(child -> {
      RunRecord record = store.run(child);
      assertThat(record.status()).isEqualTo(RunStatus.CANCELLED);
      assertThat(record.statusReason()).isEqualTo("stopped with the call of run " + run + " that started it: the"
          + " budget of run " + run + " and the agents it called is used up (all 10 model calls were made (8 of them"
          + " by the agents it called))");
      // each started with at most what the coordinator had left: 10 less its plan and turn, 10 less its 4 calls
      assertThat(record.budget().maxModelCalls()).isEqualTo(MODEL_CALLS - 2);
      assertThat(record.budget().maxToolCalls()).isEqualTo(TOOL_CALLS - 4);
    });

    // and the reply the quiet child's model gives after all is kept and counted, as the others' late ones are
    ModelCalls.release("quiet-child: never answers");
    List<String> tree = new ArrayList<>(children);
    tree.add(run);
    await().atMost(Runs.PATIENCE).until(() -> ModelCalls.received(tree) == ownModelCalls(tree));
    RunView view = runs.view(run);
    BudgetUse budgets = view.budgets();
    assertThat(budgets.modelCalls()).isEqualTo(new BudgetUse.Amount(MODEL_CALLS, (long) MODEL_CALLS, 2));
    // (a calculation under way when its run was stopped ran, and counts in the tree, though nobody observed it)
    assertThat(budgets.toolCalls().used()).isLessThanOrEqualTo(TOOL_CALLS)
        .isGreaterThanOrEqualTo(tree.stream().mapToLong(r -> store.run(r).toolCalls()).sum());
    assertThat(ModelCalls.received(tree)).isEqualTo(MODEL_CALLS);
    assertThat(view.modelCalls()).isEqualTo(2);
    assertThat(view.activeStep().kind()).isEqualTo("person");

    // when a person raises the budget with the guide decision
    Runs.submitForm(engine, stuck, "rita", Map.of("decision", "guide", "note", "sum up what you have",
        "newMaxModelCalls", 12L));

    // then the coordinator goes on within it
    RunView answered = Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(answered.finalAnswer()).isEqualTo("the children spent what they could");
    assertThat(answered.budgets().modelCalls()).isEqualTo(new BudgetUse.Amount(MODEL_CALLS + 1, 12L, 3));
    assertThat(ModelCalls.received(tree)).isEqualTo(MODEL_CALLS + 1);
  }

  private int ownModelCalls(List<String> runIds) {
    return runIds.stream().mapToInt(r -> store.run(r).modelCalls()).sum();
  }

  private List<String> children(String run) {
    return engine.getHistoryService().createHistoricProcessInstanceQuery().superProcessInstanceId(run).list().stream()
        .map(HistoricProcessInstance::getId).toList();
  }
}
