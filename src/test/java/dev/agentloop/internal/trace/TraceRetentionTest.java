package dev.agentloop.internal.trace;

import static dev.agentloop.ApiClient.assertProblem;
import static dev.agentloop.ApiClient.body;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import dev.agentloop.api.RunStatus;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Trace retention on H2, in the context the other tests share, and the operators' call to delete a trace. */
@AgentLoopTest
class TraceRetentionTest extends TraceRetentionScenarios {

  @LocalServerPort int port;

  @Test
  void should_let_only_an_operator_delete_a_finished_runs_trace_with_a_reason_and_keep_a_tombstone() {
    // given a finished run and one that waits for its plan review
    String finished = answered(TestAgent.KEY, "multi-step: personal data inside");
    String running = waitingForReview("review-plan: still running through the API");
    int steps = store.allSteps(finished).size();
    ApiClient operator = ApiClient.as(port, "operator");

    // when others try, without a reason, on a running run, or on no run
    assertProblem(ApiClient.as(port, "reviewer").delete(trace(finished, "because")), 403, "agent-operators");
    assertProblem(operator.delete("/api/runs/" + finished + "/trace"), 400, "reason");
    assertProblem(operator.delete(trace(running, "too%20early")), 409, "has not finished");
    assertProblem(operator.delete(trace("no-such-run", "because")), 404, "no-such-run");

    // then nothing was deleted
    assertThat(store.allSteps(finished)).hasSize(steps);
    assertThat(store.allSteps(running)).isNotEmpty();

    // when an operator deletes it with a reason, twice
    JsonNode deletion = body(operator.delete(trace(finished, "customer%20asked%20for%20erasure")), 200);
    JsonNode again = body(operator.delete(trace(finished, "once%20more")), 200);

    // then the steps and the question are gone, the tombstone says who, when and why, the run is still listed
    assertThat(deletion.get("runId").asText()).isEqualTo(finished);
    assertThat(deletion.get("deletedBy").asText()).isEqualTo("operator");
    assertThat(deletion.get("reason").asText()).isEqualTo("customer asked for erasure");
    assertThat(deletion.get("stepsDeleted").asInt()).isEqualTo(steps);
    assertThat(again).isEqualTo(deletion);
    assertThat(stepRows(finished)).isZero();
    assertThat(body(operator.get("/api/runs/" + finished + "/trace?branches=all"), 200).get("steps")).isEmpty();
    JsonNode run = body(operator.get("/api/runs/" + finished), 200);
    assertThat(run.get("question").asText()).isEmpty();
    assertThat(run.get("status").asText()).isEqualTo(RunStatus.ANSWERED.name());
    assertThat(retention.deletion(finished)).hasValueSatisfying(tombstone -> {
      assertThat(tombstone.deletedBy()).isEqualTo("operator");
      assertThat(tombstone.reason()).isEqualTo("customer asked for erasure");
    });
    assertThat(retention.deletion(running)).isEmpty();
    engine.getRuntimeService().deleteProcessInstance(running, "test done");
  }

  private static String trace(String run, String reason) {
    return "/api/runs/" + run + "/trace?reason=" + reason;
  }
}
