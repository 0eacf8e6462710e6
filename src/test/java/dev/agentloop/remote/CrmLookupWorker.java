package dev.agentloop.remote;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.camunda.bpm.client.ExternalTaskClient;
import org.camunda.bpm.client.backoff.BackoffStrategy;
import org.camunda.bpm.client.backoff.ExponentialErrorBackoffStrategy;
import org.camunda.bpm.client.interceptor.auth.BasicAuthProvider;
import org.camunda.bpm.client.task.ExternalTask;
import org.camunda.bpm.client.task.ExternalTaskService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An example remote tool worker: serves the tool {@code crm_lookup} on its topic
 * {@code agentloop.tool.crm_lookup} from another process, through the engine REST API with HTTP
 * Basic authentication, using Camunda's own external task client. It uses nothing of AgentLoop; the
 * whole protocol is the topic and five variables:
 * <ul>
 *   <li>fetch the task's local variables {@code callId}, {@code tool} and {@code arguments} (the
 *       call's arguments as JSON text, already checked against the tool's schema);
 *   <li>complete it with the local variable {@code result} (text the model reads), or {@code error}
 *       when the tool cannot do what was asked (the model reads that too and may try otherwise);
 *   <li>call {@code handleFailure} for technical trouble: the engine retries after the back-off, and
 *       when no retries are left an incident shows in Cockpit, where an operator retries it.
 * </ul>
 *
 * <p>Run it next to a running AgentLoop that declares {@code crm_lookup} remote (see the README):
 * <pre>
 * AGENTLOOP_WORKER_USER=worker AGENTLOOP_WORKER_PASSWORD=worker \
 *   mvn -q test-compile exec:java -Dexec.classpathScope=test -Dexec.mainClass=dev.agentloop.remote.CrmLookupWorker
 * </pre>
 * It lives with the tests so that the test runs exactly this code and the app's jar does not carry
 * it; a real worker is a project of its own with the one dependency
 * {@code org.camunda.bpm:camunda-external-task-client}. Thread-safe.
 */
public final class CrmLookupWorker implements AutoCloseable {

  public static final String TOOL = "crm_lookup";
  public static final String TOPIC = "agentloop.tool." + TOOL;

  private static final Logger LOG = LoggerFactory.getLogger(CrmLookupWorker.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Where customers are looked up; it may be out of reach. */
  @FunctionalInterface
  public interface Crm {

    /** @return a description of the customer for the model, or empty when there is none with that id */
    Optional<String> describe(String customerId) throws IOException;
  }

  /**
   * How the worker reaches the engine and fails.
   *
   * @param engineRest the engine REST API, e.g. {@code http://localhost:8080/engine-rest}
   * @param user a user of the group {@code agent-workers}
   * @param lockDuration how long a fetched task is ours; must exceed the time a lookup takes
   * @param longPolling how long a fetch waits on the engine for a task before it answers empty
   * @param retries how often the engine retries a task after its first technical failure
   * @param retryBackoff how long it waits before each retry
   */
  public record Settings(String engineRest, String user, String password, String workerId, Duration lockDuration,
      Duration longPolling, int retries, Duration retryBackoff) {

    public Settings {
      Objects.requireNonNull(engineRest, "engineRest");
      Objects.requireNonNull(user, "user: a user of the group agent-workers");
      Objects.requireNonNull(password, "password");
      Objects.requireNonNull(workerId, "workerId");
      if (retries < 0) {
        throw new IllegalArgumentException("retries must be >= 0, was " + retries);
      }
    }

    /** From AGENTLOOP_ENGINE_REST, AGENTLOOP_WORKER_USER, AGENTLOOP_WORKER_PASSWORD, AGENTLOOP_WORKER_ID. */
    static Settings fromEnvironment(Map<String, String> env) {
      return new Settings(env.getOrDefault("AGENTLOOP_ENGINE_REST", "http://localhost:8080/engine-rest"),
          env.get("AGENTLOOP_WORKER_USER"), env.get("AGENTLOOP_WORKER_PASSWORD"),
          env.getOrDefault("AGENTLOOP_WORKER_ID", "crm-lookup-worker"),
          Duration.ofSeconds(30), Duration.ofSeconds(20), 3, Duration.ofSeconds(10));
    }
  }

  private final ExternalTaskClient client;
  private final Crm crm;
  private final Settings settings;

  private CrmLookupWorker(Settings settings, Crm crm, BackoffStrategy backoff) {
    this.settings = settings;
    this.crm = crm;
    this.client = ExternalTaskClient.create()
        .baseUrl(settings.engineRest())
        .workerId(settings.workerId())
        .addInterceptor(new BasicAuthProvider(settings.user(), settings.password()))
        .asyncResponseTimeout(settings.longPolling().toMillis())
        .backoffStrategy(backoff)
        .customizeHttpClient(http -> http.addResponseInterceptorLast((response, entity, context) -> {
          // the engine answers wrong credentials with an empty 401, which the client would report as a
          // lost connection with a JSON parse error; say what it is
          if (response.getCode() == 401) {
            throw new IOException("HTTP 401: the engine refused the credentials of user '" + settings.user() + "'");
          }
        }))
        .build();
    client.subscribe(TOPIC)
        .lockDuration(settings.lockDuration().toMillis())
        .variables("callId", "tool", "arguments")
        .localVariables(true)
        .handler(this::handle)
        .open();
  }

  /**
   * Starts serving the topic at once.
   *
   * @param backoff how long to pause after an empty or failed fetch; an {@code ErrorAwareBackoffStrategy}
   *     also learns why a fetch failed (a 401 for wrong credentials, a refused connection)
   */
  public static CrmLookupWorker start(Settings settings, Crm crm, BackoffStrategy backoff) {
    return new CrmLookupWorker(settings, crm, backoff);
  }

  public static void main(String[] args) throws InterruptedException {
    Settings settings = Settings.fromEnvironment(System.getenv());
    CrmLookupWorker worker = start(settings, new SampleCrm(), new ExponentialErrorBackoffStrategy(500, 2, 60_000));
    Runtime.getRuntime().addShutdownHook(new Thread(worker::close, "crm-lookup-worker-stop"));
    LOG.info("worker {} serves {} at {} as {}", settings.workerId(), TOPIC, settings.engineRest(), settings.user());
    Thread.currentThread().join();
  }

  @Override
  public void close() {
    client.stop();
  }

  private void handle(ExternalTask task, ExternalTaskService service) {
    String customerId;
    try {
      customerId = JSON.readTree(task.<String>getVariable("arguments")).path("customerId").asText();
    } catch (JsonProcessingException e) {
      service.complete(task, Map.of(), Map.of("error", "the arguments are no JSON: " + e.getOriginalMessage()));
      return;
    }
    Optional<String> customer;
    try {
      customer = crm.describe(customerId);
    } catch (IOException e) {
      fail(task, service, e);
      return;
    }
    LOG.info("call {}: {} for {}", task.<String>getVariable("callId"), customer.isPresent() ? "found" : "no customer",
        customerId);
    service.complete(task, Map.of(), customer.<Map<String, Object>>map(text -> Map.of("result", text))
        .orElseGet(() -> Map.of("error", "there is no customer with id " + customerId)));
  }

  /** A technical failure: the engine retries the task later, and raises an incident when none are left. */
  private void fail(ExternalTask task, ExternalTaskService service, IOException e) {
    int retries = task.getRetries() == null ? settings.retries() : Math.max(task.getRetries() - 1, 0);
    LOG.warn("call {}: the CRM is out of reach, {} retries left: {}", task.<String>getVariable("callId"), retries,
        e.getMessage());
    StringWriter details = new StringWriter();
    e.printStackTrace(new PrintWriter(details));
    service.handleFailure(task, "the CRM is out of reach: " + e.getMessage(), details.toString(), retries,
        settings.retryBackoff().toMillis());
  }

  /** A few fixed customers: the example's stand-in for a CRM only the worker's network reaches. */
  public static final class SampleCrm implements Crm {

    private static final Map<String, String> CUSTOMERS = Map.of(
        "C-100", "C-100: Ada Lovelace, tier gold, customer since 2019, open tickets: 1",
        "C-200", "C-200: Alan Turing, tier silver, customer since 2021, open tickets: 0");

    @Override
    public Optional<String> describe(String customerId) {
      return Optional.ofNullable(CUSTOMERS.get(customerId));
    }
  }
}
