package dev.agentloop;

import dev.agentloop.spi.ChatModel;
import dev.agentloop.spi.ModelReply;
import dev.agentloop.spi.ModelRequest;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * What the model received, counted per run where the provider would count it: on the application's model itself,
 * beneath AgentLoop's retries, breakers and slots, so that a test can hold the calls the runs counted against the
 * calls the model got. Replies to chosen questions can be held back until the test lets them go (a slow model that
 * is slow exactly as long as the test needs). Static: one JVM's tests share it, each with runs of its own.
 */
@TestConfiguration(proxyBeanMethods = false)
public class ModelCalls {

  private static final Map<String, AtomicInteger> RECEIVED = new ConcurrentHashMap<>();
  private static final Map<String, Held> HELD = new ConcurrentHashMap<>();
  private static final ExecutorService RELEASED = Executors.newCachedThreadPool(runnable -> {
    Thread thread = new Thread(runnable, "held-model-reply");
    thread.setDaemon(true);
    return thread;
  });

  /** Wraps the application's model bean ({@code chatModel}, the one AgentLoop's guard wraps in turn). */
  @Bean
  static BeanPostProcessor modelCallsCounter() {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String name) {
        return "chatModel".equals(name) && bean instanceof ChatModel model ? new Counting(model) : bean;
      }
    };
  }

  /** How many calls the model received for this run. */
  public static int received(String runId) {
    AtomicInteger count = RECEIVED.get(runId);
    return count == null ? 0 : count.get();
  }

  /** How many calls the model received for these runs together. */
  public static int received(Collection<String> runIds) {
    return runIds.stream().mapToInt(ModelCalls::received).sum();
  }

  /**
   * Holds the replies to every call of these purposes (all when none is named) whose question starts with
   * {@code questionPrefix}: received and counted at once, answered by the model at once, handed back only after
   * {@link #release}.
   */
  public static void hold(String questionPrefix, ModelRequest.Purpose... purposes) {
    HELD.putIfAbsent(questionPrefix, new Held(new CompletableFuture<>(), Set.of(purposes)));
  }

  /** Lets the replies held for {@code questionPrefix} go, now and from now on. */
  public static void release(String questionPrefix) {
    HELD.computeIfAbsent(questionPrefix, prefix -> new Held(new CompletableFuture<>(), Set.of())).gate().complete(null);
  }

  private record Held(CompletableFuture<Void> gate, Set<ModelRequest.Purpose> purposes) {

    boolean holds(ModelRequest request, String prefix) {
      return request.run().question().startsWith(prefix)
          && (purposes.isEmpty() || purposes.contains(request.purpose()));
    }
  }

  private record Counting(ChatModel model) implements ChatModel {

    @Override
    public String endpoint() {
      return model.endpoint();
    }

    @Override
    public int estimateTokens(String text) {
      return model.estimateTokens(text);
    }

    @Override
    public CompletionStage<ModelReply> chat(ModelRequest request) {
      RECEIVED.computeIfAbsent(request.run().runId(), run -> new AtomicInteger()).incrementAndGet();
      CompletionStage<ModelReply> reply = model.chat(request);
      CompletableFuture<Void> gate = HELD.entrySet().stream()
          .filter(held -> held.getValue().holds(request, held.getKey())).map(held -> held.getValue().gate())
          .findFirst().orElse(null);
      return gate == null ? reply : reply.thenCombineAsync(gate, (answer, released) -> answer, RELEASED);
    }
  }
}
