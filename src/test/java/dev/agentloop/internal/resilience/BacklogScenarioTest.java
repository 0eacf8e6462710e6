package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.api.RunStatus;
import dev.agentloop.api.RunView;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.llm.scripted.ScriptedChatModel;
import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.ClassPathResource;
import org.springframework.test.context.ActiveProfiles;

/**
 * A thousand runs at once on one node, at an endpoint that takes 25 calls at a time and answers each in 30 ms
 * without holding a thread: the runs finish from the first on, not all at the end (each run's next call goes
 * before the first calls of runs that came later, and the worker takes no more runs than can start); and the
 * backlog pays for nothing twice: the provider receives exactly the calls the runs count, although the steps'
 * locks (2 s) are far shorter than the backlog (2 minutes and more on a busy machine). Counts, not clocks.
 */
@SpringBootTest(classes = {AgentLoopApplication.class, TestAgent.class, BacklogScenarioTest.CountingModel.class},
    properties = {"agentloop.llm.limits.max-in-flight=25", "agentloop.worker.lock-duration=PT2S",
        "camunda.bpm.process-engine-name=backlog"})
@Import(TestTools.class)
@ActiveProfiles("test")
class BacklogScenarioTest {

  private static final int RUNS = Integer.getInteger("backlog.runs", 1000);
  /** Each run: its plan, the turn that calls the tool, the turn that answers. */
  private static final int CALLS_PER_RUN = 3;
  private static final int CALLS = RUNS * CALLS_PER_RUN;

  @Autowired RunService runs;
  @Autowired CountingModel.Counted model;

  @Test
  void should_finish_runs_from_the_first_on_and_pay_for_no_call_twice() {
    // when a thousand runs start at once
    List<String> started = IntStream.range(0, RUNS).mapToObj(i -> runs.start(TestAgent.KEY, "backlog: run " + i))
        .toList();

    // then all answer
    await().atMost(Duration.ofMinutes(20)).pollInterval(Duration.ofSeconds(1)).until(() -> model.answers() == RUNS);
    List<RunView> views = started.stream().map(run -> await().atMost(Duration.ofMinutes(2))
        .until(() -> runs.view(run), view -> view.status() == RunStatus.ANSWERED)).toList();

    // and the provider received exactly the calls the runs counted, each of them once
    assertThat(views).allSatisfy(view -> assertThat(view.modelCalls()).isEqualTo(CALLS_PER_RUN));
    assertThat(model.calls()).isEqualTo(views.stream().mapToInt(RunView::modelCalls).sum()).isEqualTo(CALLS);

    // and they finished from the first on: the first hundred runs had answered before half of all calls were made,
    // where in lockstep (each step behind every other run's) the first answer came after two thirds of them
    List<Integer> firstHundred = started.subList(0, RUNS / 10).stream().map(model::answeredAtCall).sorted().toList();
    assertThat(firstHundred.get(firstHundred.size() - 1)).isLessThan(CALLS / 2);
    assertThat(model.answeredAtCall(started.get(0))).isLessThan(CALLS / 10);
  }

  /** The scripted model of the backlog, counting the calls it receives and when each run got its answer. */
  @TestConfiguration
  static class CountingModel {

    @Bean
    Counted chatModel() throws IOException {
      try (InputStream script = new ClassPathResource("scripts/backlog-script.json").getInputStream()) {
        return new Counted(new ScriptedChatModel(ScriptedChatModel.read(script), Executors.newFixedThreadPool(2)));
      }
    }

    static final class Counted implements ChatModel {

      private final ChatModel model;
      private final AtomicInteger calls = new AtomicInteger();
      private final AtomicInteger answers = new AtomicInteger();
      /** Run id to how many calls the provider had received when the run's answer came. */
      private final Map<String, Integer> answeredAt = new ConcurrentHashMap<>();

      Counted(ChatModel model) {
        this.model = model;
      }

      @Override
      public CompletionStage<ModelReply> chat(ModelRequest request) {
        calls.incrementAndGet();
        return model.chat(request).thenApply(reply -> {
          if (request.purpose() == ModelRequest.Purpose.THINK && reply.toolCalls().isEmpty()) {
            answeredAt.put(request.run().runId(), calls.get());
            answers.incrementAndGet();
          }
          return reply;
        });
      }

      @Override
      public String endpoint() {
        return model.endpoint();
      }

      int calls() {
        return calls.get();
      }

      int answers() {
        return answers.get();
      }

      int answeredAtCall(String runId) {
        return answeredAt.getOrDefault(runId, Integer.MAX_VALUE);
      }
    }
  }
}
