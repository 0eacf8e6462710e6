package dev.agentloop.internal.resume;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ModelCalls;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.api.ConversationTurn;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.review.ReviewException;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A conversation's budget is the run's, over all its turns: 25 turns on a budget of 6 model calls go to agentStuck
 * each time it is spent, naming it, and go on only where a person raises it; a follow-up question never lets the
 * model answer once more on its own, and the model receives exactly the calls the run counts.
 */
@AgentLoopTest
class ConversationBudgetScenarioTest {

  private static final String CHAT = "budget-chat-agent";
  private static final int TURNS = 25;
  private static final int FIRST_LIMIT = 6;

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired Conversations conversations;

  @BeforeAll
  static void deploy(@Autowired ProcessEngine engine) {
    TestAgent.deployVariant(engine, CHAT, Map.of(AgentSettings.ALLOWED_TOOLS, "*", AgentSettings.AUTO_ACCEPT_PLAN,
        "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true", AgentSettings.CONVERSATION, "true",
        AgentSettings.CONVERSATION_IDLE, "PT1H", AgentSettings.MAX_MODEL_CALLS, String.valueOf(FIRST_LIMIT)));
  }

  @Test
  void should_keep_25_turns_within_the_runs_budget_and_go_past_it_only_where_a_person_raises_it() {
    String run = runs.start(CHAT, "budget-chat: turn 1");
    int limit = FIRST_LIMIT;
    int stuck = 0;
    awaitFollowUpOrStuck(run);
    for (int turn = 2; turn <= TURNS; turn++) {
      conversations.ask(run, "budget-chat: turn " + turn, "ana");
      RunView view = awaitFollowUpOrStuck(run);
      if (view.waitingFor().contains(ReactAgentProcess.AGENT_STUCK)) {
        // the budget is spent: the run waits for a person, who sees which budget, and raises it
        stuck++;
        Task task = Runs.awaitTask(engine, run, ReactAgentProcess.AGENT_STUCK);
        assertThat(engine.getTaskService().getVariable(task.getId(), ReactAgentProcess.ESCAPE_REASON.name()))
            .isEqualTo("The run's budget is used up: all " + limit + " model calls were made.");
        assertThat(view.modelCalls()).isEqualTo(limit);
        // a guide without a new limit for what is spent grants nothing
        Map<String, Object> guide = Map.of("decision", "guide", "note", "answer the last question");
        assertThatThrownBy(() -> Runs.submitForm(engine, task, "rita", guide))
            .hasRootCauseInstanceOf(ReviewException.class)
            .hasMessageContaining("give a new limit for it with your decision (newMaxModelCalls)");
        limit += FIRST_LIMIT;
        Runs.submitForm(engine, task, "rita", Map.of("decision", "guide", "note", "answer the last question",
            "newMaxModelCalls", (long) limit));
        view = awaitFollowUpOrStuck(run);
      }
      // never past the budget, and the model got exactly the calls the run counts
      assertThat(view.modelCalls()).isLessThanOrEqualTo(limit);
      assertThat(view.budgets().modelCalls().limit()).isEqualTo((long) limit);
      assertThat(ModelCalls.received(run)).isEqualTo(view.modelCalls());
    }

    // then every turn was answered, and the budget was spent and raised again and again
    RunView view = runs.view(run);
    assertThat(view.turns()).hasSize(TURNS).allMatch(turn -> turn.status() == ConversationTurn.Status.ANSWERED);
    assertThat(stuck).isGreaterThanOrEqualTo(5);
    assertThat(view.waitingFor()).containsExactly(RunView.FOLLOW_UP);
  }

  /** Waits until the turn is answered (the run waits for its next question) or the run waits in agentStuck. */
  private RunView awaitFollowUpOrStuck(String run) {
    return await().atMost(Runs.PATIENCE).until(() -> runs.view(run), view -> view.waitingFor()
        .contains(RunView.FOLLOW_UP) || view.waitingFor().contains(ReactAgentProcess.AGENT_STUCK));
  }
}
