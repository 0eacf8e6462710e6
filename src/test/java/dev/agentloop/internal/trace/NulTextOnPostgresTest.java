package dev.agentloop.internal.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.agentloop.AgentLoopApplication;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.cluster.PostgresServer;
import dev.agentloop.internal.review.ReviewTasks;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.autoconfigure.web.servlet.AutoConfigureMockMvc;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;

/**
 * U+0000, which PostgreSQL holds in no text column, from a person, a model and a tool: the run goes on
 * and ends, the NUL stored as U+FFFD ({@link StoredText}); and what PostgreSQL would fail on in a search
 * is a problem document. The whole app on a database of its own, its API through MockMvc, no web server
 * (see {@link TraceRetentionOnPostgresTest}).
 */
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.MOCK)
@ActiveProfiles("test")
@Import({TestTools.class, TestAgent.class})
@DirtiesContext
@AutoConfigureMockMvc
@ExtendWith(OutputCaptureExtension.class)
class NulTextOnPostgresTest {

  private static final String OPERATOR = "Basic " + Base64.getEncoder()
      .encodeToString("operator:operator".getBytes(StandardCharsets.UTF_8));

  @Autowired MockMvc api;
  @Autowired RunService runs;
  @Autowired ReviewTasks tasks;
  @Autowired ProcessEngine engine;

  @DynamicPropertySource
  static void onPostgres(DynamicPropertyRegistry properties) {
    PostgresServer.Database database = PostgresServer.newDatabase("nul_text");
    properties.add("spring.datasource.url", database::jdbcUrl);
    properties.add("spring.datasource.username", database::user);
    properties.add("spring.datasource.password", database::password);
    properties.add("camunda.bpm.process-engine-name", () -> "nulTextOnPostgres");
  }

  @Test
  void should_finish_a_run_whose_question_model_reply_and_tool_result_hold_a_nul(CapturedOutput output) {
    // given a question with a NUL, a model whose plan, thought and answer hold one, a tool whose result does
    String run = runs.start(TestAgent.KEY, "nul-text: what does the text\0 say?");

    // when / then the run ends with its answer, nothing failed
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    assertThat(engine.getRuntimeService().createIncidentQuery().processInstanceId(run).count()).isZero();
    List<Step> steps = runs.trace(run, false);
    assertThat(steps).anySatisfy(step -> assertThat(step.json().toString()).contains("before\uFFFDafter")
        .doesNotContain("\\u0000"));
    assertThat(runs.view(run).finalAnswer()).isEqualTo("The text was: before\uFFFDafter");
    assertThat(runs.view(run).question()).isEqualTo("nul-text: what does the text\uFFFD say?");
    assertThat(steps).allSatisfy(step -> assertThat(step.json().toString()).doesNotContain("\\u0000"));
    assertThat(output.toString()).doesNotContain("invalid byte sequence").doesNotContain("0x00");
  }

  @Test
  void should_answer_what_postgresql_cannot_take_with_problem_documents_naming_the_field() throws Exception {
    api.perform(get("/api/runs").param("q", "a\0b").header("Authorization", OPERATOR))
        .andExpect(status().isBadRequest()).andExpect(jsonPath("$.detail").value(containsString("parameter 'q'")));
    api.perform(get("/api/runs").param("agent", TestAgent.KEY + "\0").header("Authorization", OPERATOR))
        .andExpect(status().isBadRequest()).andExpect(jsonPath("$.detail").value(containsString("parameter 'agent'")));
    api.perform(get("/api/runs").param("from", "+294277-01-01T00:00:00Z").header("Authorization", OPERATOR))
        .andExpect(status().isBadRequest()).andExpect(jsonPath("$.detail").value(containsString("parameter 'from'")));
    api.perform(post("/api/runs").contentType(MediaType.APPLICATION_JSON).header("Authorization", OPERATOR)
            .content("{\"question\": \"feedback: with \\u0000 inside\", \"agent\": \"" + TestAgent.KEY + "\"}"))
        .andExpect(status().isCreated())
        .andExpect(jsonPath("$.question").value("feedback: with \uFFFD inside"));
  }

  @Test
  void should_take_feedback_with_a_nul_and_go_on() {
    // given a run waiting for its answer review
    String run = runs.start(TestAgent.ANSWER_REVIEWED, "feedback: a NUL in the feedback");
    String task = Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER).getId();

    // when a person asks for more with a NUL in the feedback
    tasks.complete(run, task, Map.of("decision", TextNode.valueOf("feedback"),
        "feedback", TextNode.valueOf("say more\0 please")));

    // then the run goes on to its improved answer, the feedback stored with U+FFFD
    Runs.awaitView(runs, run, view -> "improved answer".equals(view.finalAnswer()));
    assertThat(runs.trace(run, false)).anySatisfy(step -> assertThat(step.json().path("text").asText())
        .isEqualTo("say more\uFFFD please"));
  }
}
