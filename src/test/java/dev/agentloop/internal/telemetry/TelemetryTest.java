package dev.agentloop.internal.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.Runs;
import dev.agentloop.TestAgent;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunStatus;
import dev.agentloop.internal.agent.definition.AgentSettings;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.resume.StepEdit;
import dev.agentloop.internal.trace.Step;
import dev.agentloop.internal.trace.step.StepKind;
import dev.agentloop.internal.trace.StepStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.externaltask.LockedExternalTask;
import org.camunda.bpm.engine.task.Task;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Runs reach real tracing backends as one trace each, by the GenAI conventions, people's decisions included: a real
 * Zipkin server (its exec jar from Maven Central, copied to target/zipkin by the build, started here as a process of
 * its own) and an OTLP/HTTP receiver that decodes what Spring Boot's exporter sends with the protocol's own messages.
 * Both get the same spans: the app exports to both at once. And a collector that hangs holds no run: the spans it
 * does not take are counted as dropped.
 */
@AgentLoopTest
class TelemetryTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final Path ZIPKIN_JAR = Path.of("target/zipkin/zipkin-server.jar");

  private static Process zipkin;
  private static int zipkinPort;
  private static OtlpReceiver otlp;

  @Autowired ProcessEngine engine;
  @Autowired RunService runs;
  @Autowired StepStore store;
  @Autowired ResumeService resume;
  @Autowired Conversations conversations;
  @Autowired MeterRegistry meters;

  @DynamicPropertySource
  static void tracing(DynamicPropertyRegistry registry) throws IOException {
    zipkinPort = freePort();
    zipkin = startZipkin(zipkinPort);
    otlp = new OtlpReceiver();
    registry.add("camunda.bpm.process-engine-name", () -> "telemetry");
    registry.add("agentloop.llm.scripted.script", () -> "classpath:scripts/telemetry-script.json");
    registry.add("management.tracing.sampling.probability", () -> "1.0");
    registry.add("management.tracing.opentelemetry.export.schedule-delay", () -> "100ms");
    registry.add("management.otlp.tracing.endpoint", () -> "http://localhost:" + otlp.port() + "/v1/traces");
    registry.add("management.otlp.tracing.timeout", () -> "5s");
    // Spring Boot's tests switch the export of traces off; these tests are about it
    registry.add("management.otlp.tracing.export.enabled", () -> "true");
    registry.add("management.zipkin.tracing.export.enabled", () -> "true");
    registry.add("management.zipkin.tracing.endpoint", () -> "http://localhost:" + zipkinPort + "/api/v2/spans");
  }

  @AfterAll
  static void stopServers() {
    if (zipkin != null) {
      zipkin.destroy();
    }
    if (otlp != null) {
      otlp.stop();
    }
  }

  @Test
  void should_show_a_run_in_zipkin_as_one_trace_with_its_model_and_tool_calls_and_the_peoples_decisions()
      throws Exception {
    // given a run with a plan review, an approved tool call, an edited observation and an accepted answer
    awaitZipkin();
    String run = runWithApprovalAndEdit();
    String traceId = traceIdOf(run);

    // when the spans have reached Zipkin (the last one is the accepted answer's)
    JsonNode spans = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> zipkinTrace(traceId), trace -> names(trace).contains("human_decision accept")
            && names(trace).stream().filter("human_decision accept"::equals).count() == 2);

    // then one root, the run's invoke_agent span, and every other span below it, in the same trace
    List<JsonNode> all = list(spans);
    assertThat(all).allSatisfy(span -> assertThat(span.path("traceId").asText()).isEqualTo(traceId));
    JsonNode root = single(all, "invoke_agent review-agent");
    assertThat(root.has("parentId")).isFalse();
    assertThat(tag(root, "gen_ai.operation.name")).isEqualTo("invoke_agent");
    assertThat(tag(root, "gen_ai.agent.name")).isEqualTo("review-agent");
    assertThat(tag(root, "gen_ai.conversation.id")).isEqualTo(run);
    assertThat(tag(root, "gen_ai.provider.name")).isEqualTo("scripted");
    assertThat(tag(root, "gen_ai.request.model")).isEqualTo("scripted");
    assertThat(tag(root, "gen_ai.agent.id")).startsWith("review-agent:");
    assertThat(tag(root, "gen_ai.agent.version")).matches("\\d+.*");
    assertThat(tag(root, "gen_ai.agent.description")).isNotBlank();
    assertThat(all.stream().filter(span -> !span.has("parentId")).count()).isEqualTo(1);
    // AgentLoop's spans come in its own instrumentation scope
    assertThat(all).allSatisfy(span -> assertThat(tag(span, "otel.scope.name")).isEqualTo("dev.agentloop"));

    // the plan, its model call below it
    JsonNode plan = single(all, "plan review-agent");
    assertThat(plan.path("parentId").asText()).isEqualTo(root.path("id").asText());
    assertThat(tag(plan, "gen_ai.operation.name")).isEqualTo("plan");
    List<JsonNode> chats = named(all, "chat scripted");
    assertThat(chats).hasSize(4); // plan, the turn with the calls, the answer, the answer again after the edit
    assertThat(chats).filteredOn(chat -> chat.path("parentId").asText().equals(plan.path("id").asText())).hasSize(1);
    assertThat(chats).filteredOn(chat -> chat.path("parentId").asText().equals(root.path("id").asText())).hasSize(3);
    assertThat(chats).allSatisfy(chat -> {
      assertThat(tag(chat, "gen_ai.operation.name")).isEqualTo("chat");
      assertThat(tag(chat, "gen_ai.provider.name")).isEqualTo("scripted");
      assertThat(tag(chat, "gen_ai.conversation.id")).isEqualTo(run);
      assertThat(chat.path("kind").asText()).isEqualTo("CLIENT");
      assertThat(tag(chat, "gen_ai.response.model")).isEqualTo("scripted");
      assertThat(tag(chat, "gen_ai.response.id")).startsWith("scripted-" + run + "-");
      assertThat(tag(chat, "agentloop.model_turn")).isNotBlank();
      // the conversation's turns are the API's turns: a model call's turn is agentloop.model_turn
      assertThat(tag(chat, "agentloop.turn")).isNull();
      // the scripted model has no server: server.address is the endpoint's host where there is one
      assertThat(tag(chat, "server.address")).isNull();
    });
    assertThat(chats).anySatisfy(chat -> {
      assertThat(tag(chat, "gen_ai.usage.input_tokens")).isEqualTo("120");
      assertThat(tag(chat, "gen_ai.usage.output_tokens")).isEqualTo("30");
      assertThat(tag(chat, "gen_ai.usage.cache_read.input_tokens")).isEqualTo("100");
      assertThat(tag(chat, "agentloop.step")).isEqualTo("think");
    });

    // both tool calls, each with its call id
    JsonNode mail = single(all, "execute_tool send_email");
    JsonNode calculator = single(all, "execute_tool calculator");
    for (JsonNode tool : List.of(mail, calculator)) {
      assertThat(tool.path("parentId").asText()).isEqualTo(root.path("id").asText());
      assertThat(tag(tool, "gen_ai.operation.name")).isEqualTo("execute_tool");
      assertThat(tag(tool, "gen_ai.tool.call.id")).isNotBlank();
      assertThat(tag(tool, "error.type")).isNull();
    }
    assertThat(tag(mail, "gen_ai.tool.call.id")).isNotEqualTo(tag(calculator, "gen_ai.tool.call.id"));

    // the people's decisions: who, what, where, and how long the run waited
    JsonNode approval = single(all, "human_decision approve");
    assertThat(approval.path("parentId").asText()).isEqualTo(root.path("id").asText());
    assertThat(tag(approval, "agentloop.human.user")).isEqualTo("carl");
    assertThat(tag(approval, "agentloop.human.task")).isEqualTo(ReactAgentProcess.APPROVE_ACTION);
    assertThat(tag(approval, "agentloop.human.source")).isEqualTo("task");
    assertThat(Double.parseDouble(tag(approval, "agentloop.human.wait.duration"))).isGreaterThanOrEqualTo(0.0);
    JsonNode edit = single(all, "human_decision edit");
    assertThat(tag(edit, "agentloop.human.user")).isEqualTo("olga");
    assertThat(tag(edit, "agentloop.human.source")).isEqualTo("api");
    assertThat(named(all, "human_decision accept")).extracting(span -> tag(span, "agentloop.human.task"))
        .containsExactlyInAnyOrder(ReactAgentProcess.REVIEW_PLAN, ReactAgentProcess.REVIEW_ANSWER);
    // the content stays out unless agentloop.telemetry.capture-content allows it
    assertThat(all).allSatisfy(span -> {
      assertThat(tag(span, "gen_ai.input.messages")).isNull();
      assertThat(tag(span, "gen_ai.tool.call.arguments")).isNull();
    });
  }

  @Test
  void should_send_the_gen_ai_attributes_over_otlp_with_their_types() throws Exception {
    // given
    String run = runWithApprovalAndEdit();
    byte[] traceId = HexFormat.of().parseHex(traceIdOf(run));

    // when the receiver has the run's spans
    List<Span> spans = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> otlp.spans().stream().filter(span -> java.util.Arrays.equals(span.getTraceId().toByteArray(),
            traceId)).toList(), trace -> trace.stream().filter(s -> s.getName().equals("human_decision accept"))
            .count() == 2);

    // then the attributes are typed: token counts are integers, not text
    Span root = spans.stream().filter(span -> span.getName().equals("invoke_agent review-agent")).findFirst()
        .orElseThrow();
    assertThat(root.getParentSpanId().isEmpty()).isTrue();
    assertThat(attribute(root, "gen_ai.conversation.id").getStringValue()).isEqualTo(run);
    assertThat(otlp.scopeOf(root)).isEqualTo("dev.agentloop");
    assertThat(attribute(root, "gen_ai.agent.version").hasStringValue()).isTrue();
    assertThat(attribute(root, "gen_ai.provider.name").getStringValue()).isEqualTo("scripted");
    Span think = spans.stream().filter(span -> span.getName().equals("chat scripted")
        && attribute(span, "gen_ai.usage.input_tokens") != null
        && attribute(span, "gen_ai.usage.input_tokens").getIntValue() == 120).findFirst().orElseThrow();
    assertThat(think.getKind()).isEqualTo(Span.SpanKind.SPAN_KIND_CLIENT);
    assertThat(attribute(think, "gen_ai.usage.output_tokens").getIntValue()).isEqualTo(30);
    assertThat(attribute(think, "gen_ai.usage.cache_read.input_tokens").getIntValue()).isEqualTo(100);
    assertThat(attribute(think, "agentloop.model_turn").getIntValue()).isEqualTo(1);
    assertThat(attribute(think, "gen_ai.response.id").getStringValue()).isEqualTo("scripted-" + run + "-1");
    assertThat(attribute(think, "gen_ai.operation.name").getStringValue()).isEqualTo("chat");
    assertThat(attribute(think, "gen_ai.request.model").getStringValue()).isEqualTo("scripted");
    assertThat(think.getParentSpanId()).isEqualTo(root.getSpanId());
    Span mail = spans.stream().filter(span -> span.getName().equals("execute_tool send_email")).findFirst()
        .orElseThrow();
    assertThat(attribute(mail, "gen_ai.tool.name").getStringValue()).isEqualTo("send_email");
    assertThat(attribute(mail, "gen_ai.tool.call.id").getStringValue()).isNotBlank();
    assertThat(mail.getParentSpanId()).isEqualTo(root.getSpanId());
    Span approval = spans.stream().filter(span -> span.getName().equals("human_decision approve")).findFirst()
        .orElseThrow();
    assertThat(attribute(approval, "agentloop.human.wait.duration").hasDoubleValue()).isTrue();
    // the approval's span covers the time the run waited for it
    assertThat(approval.getEndTimeUnixNano() - approval.getStartTimeUnixNano())
        .isCloseTo((long) (attribute(approval, "agentloop.human.wait.duration").getDoubleValue() * 1e9),
            org.assertj.core.data.Offset.offset(50_000_000L));
    assertThat(spans).allSatisfy(span -> assertThat(span.getTraceId()).isEqualTo(root.getTraceId()));
  }

  @Test
  void should_trace_a_remote_tool_call_from_its_wait_for_a_worker_to_its_completion_and_hand_the_worker_the_context()
      throws Exception {
    // given a run whose tool call waits for a remote worker
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
        ReactAgentProcess.QUESTION.with("telemetry-remote: who is C-42?")).getId();
    await().atMost(Runs.PATIENCE).until(() -> engine.getExternalTaskService().createExternalTaskQuery()
        .processInstanceId(run).topicName("agentloop.tool.crm_lookup").count() == 1);

    // when a worker fetches it with the run's trace context and completes it
    Object traceparent = engine.getRuntimeService().getVariable(run, RunTraces.VARIABLE);
    assertThat(traceparent).asString().startsWith("00-");
    // (the run's traceparent is unique: it picks this run's task among those of other tests)
    List<LockedExternalTask> locked = engine.getExternalTaskService().fetchAndLock(1, "crm-worker")
        .topic("agentloop.tool.crm_lookup", 30_000).processInstanceVariableEquals(RunTraces.VARIABLE, traceparent)
        .execute();
    assertThat(locked).hasSize(1);
    assertThat(locked.get(0).getProcessInstanceId()).isEqualTo(run);
    assertThat(locked.get(0).getVariables().get(RunTraces.VARIABLE)).isEqualTo(traceparent);
    engine.getExternalTaskService().complete(locked.get(0).getId(), "crm-worker",
        Map.of(ReactAgentProcess.RESULT, "C-42: Ann Example, gold tier"));
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

    // then the call is an execute_tool span of the run, marked remote, with its call id
    byte[] traceId = HexFormat.of().parseHex(traceIdOf(run));
    Span call = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> otlp.spans().stream().filter(span -> java.util.Arrays.equals(span.getTraceId().toByteArray(),
            traceId) && span.getName().equals("execute_tool crm_lookup")).findFirst(), java.util.Optional::isPresent)
        .orElseThrow();
    assertThat(attribute(call, "agentloop.tool.lane").getStringValue()).isEqualTo("remote");
    assertThat(attribute(call, "gen_ai.tool.call.id").getStringValue()).isNotBlank();
    assertThat(attribute(call, "error.type")).isNull();
    assertThat(call.getEndTimeUnixNano()).isGreaterThan(call.getStartTimeUnixNano());
  }

  @Test
  void should_finish_a_run_while_the_collector_hangs_and_count_the_spans_it_never_took() throws Exception {
    // given a collector that takes connections and never answers
    double droppedBefore = dropped();
    otlp.hang();
    try {
      // when a run goes from start to answer
      String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.KEY,
          ReactAgentProcess.QUESTION.with("no script for this one")).getId();
      Runs.awaitStatus(runs, run, RunStatus.ANSWERED);

      // then the run ended with its answer before the exporter gave up on a single span: it never waited for one
      assertThat(dropped()).isEqualTo(droppedBefore);
      await().atMost(Duration.ofSeconds(10)).until(() -> otlp.waiting() > 0);
      // and once the exporter gives up, the spans it could not deliver are counted
      await().atMost(Duration.ofSeconds(30)).until(() -> dropped() > droppedBefore);
    } finally {
      otlp.answer();
    }
  }

  @Test
  void should_trace_an_agent_call_as_a_tool_call_and_a_conversation_under_its_clients_id_with_its_decisions()
      throws Exception {
    awaitZipkin();
    // given an agent that calls another, and a conversation its client started under an id of its own
    TestAgent.deployVariant(engine, "telemetry-child", Map.of(AgentSettings.AUTO_ACCEPT_PLAN, "true",
        AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployVariant(engine, "telemetry-caller", Map.of(AgentSettings.ALLOWED_TOOLS, "telemetry-child",
        AgentSettings.AUTO_ACCEPT_PLAN, "true", AgentSettings.AUTO_ACCEPT_ANSWER, "true"));
    TestAgent.deployConversationAgents(engine, "telemetry-chat", "telemetry-chat-reviewed");

    // when the caller's run calls the child, and the conversation takes a follow-up and is closed
    String caller = runs.start("telemetry-caller", "telemetry-call: ask the child");
    Runs.awaitStatus(runs, caller, RunStatus.ANSWERED);
    String chat = runs.start("telemetry-chat", "conv: first", "client-conversation-7");
    await().atMost(Runs.PATIENCE).until(() -> runs.waitsForFollowUp(chat));
    conversations.ask(chat, "conv: second", "mia");
    await().atMost(Runs.PATIENCE).until(() -> runs.turns(chat).size() == 2 && runs.waitsForFollowUp(chat));
    conversations.close(chat, "that is all", "mia");
    Runs.awaitStatus(runs, chat, RunStatus.ANSWERED);

    // then the call of the agent is an execute_tool span of the caller, parent of the child's invoke_agent
    String callerTrace = traceIdOf(caller);
    List<JsonNode> called = list(await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
        .until(() -> zipkinTrace(callerTrace), trace -> names(trace).contains("invoke_agent telemetry-child")
            && names(trace).stream().filter("chat scripted"::equals).count() >= 4));
    JsonNode callerRoot = single(called, "invoke_agent telemetry-caller");
    JsonNode call = single(called, "execute_tool telemetry-child");
    JsonNode child = single(called, "invoke_agent telemetry-child");
    assertThat(call.path("parentId").asText()).isEqualTo(callerRoot.path("id").asText());
    assertThat(child.path("parentId").asText()).isEqualTo(call.path("id").asText());
    assertThat(tag(call, "gen_ai.operation.name")).isEqualTo("execute_tool");
    assertThat(tag(call, "gen_ai.tool.name")).isEqualTo("telemetry-child");
    assertThat(tag(call, "gen_ai.tool.type")).isEqualTo("function");
    assertThat(tag(call, "gen_ai.tool.call.id")).isNotBlank();
    assertThat(tag(call, "agentloop.tool.lane")).isEqualTo("agent");
    assertThat(tag(call, "agentloop.child_run.id")).isEqualTo(tag(child, "agentloop.run.id"));
    assertThat(tag(child, "gen_ai.agent.id")).startsWith("telemetry-child:");
    assertThat(named(called, "chat scripted")).anySatisfy(chatSpan ->
        assertThat(tag(chatSpan, "agentloop.run.id")).isEqualTo(tag(child, "agentloop.run.id")));

    // and the conversation's spans carry the client's id; its follow-up and its close are people's decisions
    byte[] chatTrace = HexFormat.of().parseHex(traceIdOf(chat));
    List<Span> conversation = await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> otlp.spans().stream().filter(span -> java.util.Arrays.equals(span.getTraceId().toByteArray(),
            chatTrace)).toList(), spans -> spans.stream().anyMatch(span -> span.getName().equals("human_decision close")));
    assertThat(conversation).allSatisfy(span -> assertThat(attribute(span, "gen_ai.conversation.id").getStringValue())
        .isEqualTo("client-conversation-7"));
    Span followUp = conversation.stream().filter(span -> span.getName().equals("human_decision follow_up"))
        .findFirst().orElseThrow();
    assertThat(attribute(followUp, "agentloop.human.user").getStringValue()).isEqualTo("mia");
    assertThat(attribute(followUp, "agentloop.human.source").getStringValue()).isEqualTo("api");
    Span close = conversation.stream().filter(span -> span.getName().equals("human_decision close")).findFirst()
        .orElseThrow();
    assertThat(attribute(close, "agentloop.human.decision").getStringValue()).isEqualTo("close");
  }

  // ---- the run ----------------------------------------------------------------------------------

  private String runWithApprovalAndEdit() {
    String run = engine.getRuntimeService().startProcessInstanceByKey(TestAgent.REVIEWED,
        ReactAgentProcess.QUESTION.with("telemetry: mail ann and compute")).getId();
    complete(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_PLAN), "ann", Map.of("decision", "accept"));
    complete(Runs.awaitTask(engine, run, ReactAgentProcess.APPROVE_ACTION), "carl", Map.of("decision1", "approve"));
    awaitAnswers(run, 1);
    Step observation = store.activePath(run).stream()
        .filter(step -> step.kind() == StepKind.OBSERVATION && step.author().equals("calculator")).findFirst()
        .orElseThrow();
    resume.edit(new StepEdit(run, observation.stepNo(), json("{\"result\": \"42, checked\"}"), "checked by hand",
        runs.view(run).version(), "olga"));
    awaitAnswers(run, 2);
    complete(Runs.awaitTask(engine, run, ReactAgentProcess.REVIEW_ANSWER), "ann", Map.of("decision", "accept"));
    Runs.awaitStatus(runs, run, RunStatus.ANSWERED);
    return run;
  }

  private void awaitAnswers(String run, int answers) {
    await().atMost(Runs.PATIENCE).until(() ->
        store.allSteps(run).stream().filter(step -> step.kind() == StepKind.FINAL_ANSWER).count() == answers
            && runs.view(run).waitingFor().contains(ReactAgentProcess.REVIEW_ANSWER));
  }

  private void complete(Task task, String user, Map<String, Object> fields) {
    Runs.submitForm(engine, task, user, fields);
  }

  /** The trace id of the run's stored trace context: where all its spans must be. */
  private String traceIdOf(String run) {
    String traceparent = (String) engine.getHistoryService().createHistoricVariableInstanceQuery()
        .processInstanceId(run).variableName(RunTraces.VARIABLE).singleResult().getValue();
    assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
    return traceparent.substring(3, 35);
  }

  private double dropped() {
    Counter counter = meters.find(TelemetryConfiguration.DROPPED_SPANS).tag("exporter", "OtlpHttpSpanExporter")
        .counter();
    return counter == null ? 0 : counter.count();
  }

  // ---- Zipkin -----------------------------------------------------------------------------------

  private static Process startZipkin(int port) throws IOException {
    assertThat(ZIPKIN_JAR).as("the build copies Zipkin's exec jar there (maven-dependency-plugin)").exists();
    Path log = Files.createDirectories(Path.of("target/zipkin")).resolve("zipkin-" + port + ".log");
    Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", ZIPKIN_JAR.toString(), "--server.port=" + port)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return process;
  }

  /** Zipkin starts while the app does (about 10 s); the test that reads it waits for it before its run. */
  private static void awaitZipkin() {
    await().atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(250)).until(() -> {
      if (!zipkin.isAlive()) {
        throw new IllegalStateException("Zipkin ended with " + zipkin.exitValue() + ", see target/zipkin");
      }
      try {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + zipkinPort + "/health")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
      } catch (IOException e) {
        return false;
      }
    });
  }

  private static JsonNode zipkinTrace(String traceId) throws IOException, InterruptedException {
    HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
        URI.create("http://localhost:" + zipkinPort + "/api/v2/trace/" + traceId)).build(),
        HttpResponse.BodyHandlers.ofString());
    return response.statusCode() == 200 ? JSON.readTree(response.body()) : JSON.createArrayNode();
  }

  private static List<JsonNode> list(JsonNode spans) {
    return java.util.stream.StreamSupport.stream(spans.spliterator(), false).toList();
  }

  private static List<String> names(JsonNode spans) {
    return list(spans).stream().map(span -> span.path("name").asText()).toList();
  }

  private static List<JsonNode> named(List<JsonNode> spans, String name) {
    return spans.stream().filter(span -> span.path("name").asText().equals(name)).toList();
  }

  private static JsonNode single(List<JsonNode> spans, String name) {
    List<JsonNode> found = named(spans, name);
    assertThat(found).as("spans named '%s' among %s", name,
        spans.stream().map(s -> s.path("name").asText()).collect(Collectors.toList())).hasSize(1);
    return found.get(0);
  }

  private static String tag(JsonNode span, String name) {
    JsonNode value = span.path("tags").get(name);
    return value == null ? null : value.asText();
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  private static AnyValue attribute(Span span, String key) {
    return span.getAttributesList().stream().filter(kv -> kv.getKey().equals(key)).map(KeyValue::getValue)
        .findFirst().orElse(null);
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
