package dev.agentloop.internal.llm.openai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.agentloop.internal.llm.ModelCalls;
import dev.agentloop.internal.llm.limits.CallTicket;
import dev.agentloop.internal.llm.limits.ModelQueue;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import dev.agentloop.spi.ChatMessage;
import dev.agentloop.spi.ModelCallException;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI wire on the JDK's asynchronous client, against the local fake: calls under way hold no thread,
 * a cancelled call frees its slot at once, and the provider's {@code Retry-After} and rate-limit headers hold
 * the endpoint's next calls back as long as they ask (lower bounds on time only: a busy machine makes waits
 * longer, never shorter).
 */
class AsyncOpenAiWireTest {

  private static final int CALLS = 40;

  private FakeOpenAiServer server;
  private ExecutorService oneReplyThread;
  private ScheduledExecutorService timer;

  @BeforeEach
  void start() throws IOException {
    server = new FakeOpenAiServer();
    oneReplyThread = Executors.newSingleThreadExecutor();
    timer = Executors.newSingleThreadScheduledExecutor();
  }

  @AfterEach
  void stop() {
    server.close();
    oneReplyThread.shutdownNow();
    timer.shutdownNow();
  }

  @Test
  void should_have_forty_calls_at_the_endpoint_at_once_with_a_single_reply_thread() {
    // given an endpoint that answers only once all forty calls are with it at the same time
    CountDownLatch allThere = new CountDownLatch(CALLS);
    server.answerWith(request -> {
      allThere.countDown();
      return new Response(arrived(allThere) ? 200 : 503, FakeOpenAiServer.textCompletion("all there", 5, 2));
    });
    OpenAiCompatibleChatModel model = model(Duration.ofSeconds(60), null);

    // when
    List<CompletableFuture<ModelReply>> calls = IntStream.range(0, CALLS)
        .mapToObj(i -> model.chat(request("call " + i)).toCompletableFuture()).toList();

    // then each is answered: none waited for a thread while the others were under way
    assertThat(calls).allSatisfy(call -> assertThat(ModelCalls.reply(call).text()).isEqualTo("all there"));
    assertThat(server.requests()).hasSize(CALLS);
  }

  @Test
  void should_free_the_slot_of_a_cancelled_call_at_once_while_its_answer_is_still_out() {
    // given one call at a time, the first held by the endpoint
    CountDownLatch release = new CountDownLatch(1);
    server.answerWith(request -> {
      if (question(request).equals("held")) {
        arrived(release);
      }
      return new Response(200, FakeOpenAiServer.textCompletion("answered " + question(request), 5, 2));
    });
    ModelQueue queue = new ModelQueue(1, 0, 0, timer);
    OpenAiCompatibleChatModel model = model(Duration.ofSeconds(60), queue);
    try {
      CompletionStage<ModelReply> held = queue.run(ticket("run-1"), admitted -> model.chat(request("held")));
      CompletionStage<ModelReply> next = queue.run(ticket("run-2"), admitted -> model.chat(request("next")));
      await().atMost(Duration.ofSeconds(15)).until(() -> server.requests().size() == 1);

      // when the first is cancelled (its run was stopped)
      held.toCompletableFuture().cancel(true);

      // then the next goes out while the first's answer is still held
      assertThat(ModelCalls.reply(next).text()).isEqualTo("answered next");
      assertThat(held.toCompletableFuture()).isCancelled();
    } finally {
      release.countDown();
    }
  }

  @Test
  void should_hold_the_next_calls_back_as_long_as_a_429_asks() {
    // given an endpoint that refuses the first call for 2 s
    server.respond(new Response(429, FakeOpenAiServer.errorBody("Rate limit reached", "requests", "rate_limit_exceeded"),
        Duration.ZERO, Map.of("Retry-After", "2")));
    server.answerWith(request -> new Response(200, FakeOpenAiServer.textCompletion("fine", 5, 2)));
    ModelQueue queue = new ModelQueue(10, 0, 0, timer);
    OpenAiCompatibleChatModel model = model(Duration.ofSeconds(60), queue);

    // when
    ModelCallException refused = ModelCalls.failure(queue.run(ticket("run-1"), admitted -> model.chat(request("a"))));
    CompletionStage<ModelReply> next = queue.run(ticket("run-2"), admitted -> model.chat(request("b")));

    // then the refusal says how long to wait, and the next call went no sooner
    assertThat(refused.httpStatus()).isEqualTo(429);
    assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(2));
    assertThat(ModelCalls.reply(next).text()).isEqualTo("fine");
    assertThat(gap(0, 1)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void should_hold_the_next_calls_back_until_the_reset_when_a_successful_answer_says_nothing_is_left() {
    server.respond(new Response(200, FakeOpenAiServer.textCompletion("the last one this second", 5, 2), Duration.ZERO,
        Map.of("x-ratelimit-limit-requests", "60", "x-ratelimit-remaining-requests", "0",
            "x-ratelimit-reset-requests", "1.5s")));
    server.answerWith(request -> new Response(200, FakeOpenAiServer.textCompletion("fine", 5, 2)));
    ModelQueue queue = new ModelQueue(10, 0, 0, timer);
    OpenAiCompatibleChatModel model = model(Duration.ofSeconds(60), queue);

    ModelReply first = ModelCalls.reply(queue.run(ticket("run-1"), admitted -> model.chat(request("a"))));
    ModelReply second = ModelCalls.reply(queue.run(ticket("run-2"), admitted -> model.chat(request("b"))));

    assertThat(first.text()).isEqualTo("the last one this second");
    assertThat(second.text()).isEqualTo("fine");
    assertThat(gap(0, 1)).isGreaterThanOrEqualTo(Duration.ofMillis(1500));
  }

  private OpenAiCompatibleChatModel model(Duration timeout, ModelQueue queue) {
    return new OpenAiCompatibleChatModel(server.baseUrl(), "sk-test", "test-model", timeout, null, oneReplyThread,
        queue == null ? (status, headers) -> { } : queue::answered);
  }

  private Duration gap(int first, int second) {
    List<Long> arrivals = server.arrivals();
    return Duration.ofNanos(arrivals.get(second) - arrivals.get(first));
  }

  private static CallTicket ticket(String run) {
    return new CallTicket(run, 0, null);
  }

  private static ModelRequest request(String question) {
    return ModelCalls.request(List.of(), new ChatMessage.UserMessage(question));
  }

  private static String question(Recorded request) {
    return request.body().path("messages").path(0).path("content").asText();
  }

  private static boolean arrived(CountDownLatch latch) {
    try {
      return latch.await(20, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
