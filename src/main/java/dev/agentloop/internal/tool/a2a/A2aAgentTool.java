package dev.agentloop.internal.tool.a2a;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.tool.InputRequiredException;
import dev.agentloop.internal.tool.RemoteInput;
import dev.agentloop.spi.AgentTool;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A remote A2A agent as the tool {@code <name>}: a call sends the model's {@code message} (continuing the remote
 * task or context it names) and waits, within the tool's time-out, until the remote task has ended or waits for
 * input. A completed task is the observation; a failed, rejected or cancelled one an error the model reads; one
 * that waits for input ends the call with an {@link InputRequiredException}, which the agent loop hands to a
 * person. Past the time-out the remote task is cancelled ({@link RemoteTaskWatch}). Thread-safe.
 */
final class A2aAgentTool implements AgentTool {

  private static final Logger LOG = LoggerFactory.getLogger(A2aAgentTool.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_MESSAGE_CHARS = 20_000;

  private final String name;
  private final A2aAgentSettings settings;
  private final Duration timeout;
  private final A2aClient client;
  private final RemoteTaskWatch watch;
  private final JsonNode parameters;
  private final AtomicReference<RemoteCard> card = new AtomicReference<>();
  private volatile String cardProblem = "not read yet";

  A2aAgentTool(String name, A2aAgentSettings settings, Duration defaultTimeout, HttpClient http) {
    this.name = name;
    this.settings = settings;
    this.timeout = settings.timeout() == null ? defaultTimeout : settings.timeout();
    this.client = new A2aClient(name, settings, http);
    this.watch = new RemoteTaskWatch(name, client, settings.pollInterval(), timeout);
    String id = RemoteInput.ID.pattern();
    this.parameters = parse("""
        {"type": "object",
         "properties": {
           "message": {"type": "string", "minLength": 1, "maxLength": %d,
                       "description": "what to ask or tell the remote agent"},
           "taskId": {"type": "string", "pattern": "^%s$",
                      "description": "only to answer a remote task that asked for input: that task's id"},
           "contextId": {"type": "string", "pattern": "^%s$",
                         "description": "only to go on with an earlier conversation: the remote context it named"}},
         "required": ["message"], "additionalProperties": false}
        """.formatted(MAX_MESSAGE_CHARS, id.replace("\\", "\\\\"), id.replace("\\", "\\\\")));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public String description() {
    if (settings.description() != null) {
      return settings.description();
    }
    RemoteCard read = card.get();
    return read != null ? read.description()
        : "Remote A2A agent at " + settings.url() + " (its card could not be read: " + cardProblem + ")";
  }

  @Override
  public JsonNode parameters() {
    return parameters;
  }

  @Override
  public boolean sideEffects() {
    return settings.sideEffects();
  }

  @Override
  public Optional<Duration> timeout() {
    return Optional.of(timeout);
  }

  /** Reads the card now, so that the model reads the agent's own description; failures are logged once per cause. */
  void readCard() {
    try {
      card(Instant.now().plus(timeout));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.warn("AGENTLOOP-601: the card of remote A2A agent '{}' at {} could not be read: {}; its calls try again."
          + " Check agentloop.tools.a2a.{}.url", name, settings.url(), e.getMessage(), name);
    }
  }

  @Override
  public String execute(JsonNode arguments) throws Exception {
    Instant deadline = Instant.now().plus(timeout);
    RemoteCard remote = card(deadline);
    String continued = arguments.path("taskId").isTextual() ? arguments.get("taskId").asText() : "";
    RemoteTask task;
    try {
      task = RemoteTask.ofSendResult(client.call(remote.endpoint(), A2aProtocol.SEND_MESSAGE,
          sendParams(arguments, continued.isEmpty()), deadline), name);
    } catch (TimeoutException e) {
      throw continued.isEmpty() ? e : watch.timedOut(remote, continued);
    }
    return outcome(task.ended() ? task : watch.awaitEnd(remote, task, deadline));
  }

  private String outcome(RemoteTask task) throws Exception {
    String said = task.text().isEmpty() ? "" : ": " + task.text();
    switch (task.state()) {
      case COMPLETED -> {
        String answer = task.text().isEmpty() ? "(the remote agent ended its task without an answer in words)"
            : task.text();
        return task.contextId().isEmpty() ? answer : answer + "\n[remote context " + task.contextId() + "]";
      }
      case INPUT_REQUIRED -> throw new InputRequiredException(new RemoteInput(name, task.id(), task.contextId(),
          task.text()));
      case AUTH_REQUIRED -> throw new A2aPeerException("remote agent '" + name + "' asks for authentication that a"
          + " call cannot give" + said);
      case REJECTED -> throw new A2aPeerException("remote agent '" + name + "' rejected the task" + said);
      case CANCELED -> throw new A2aPeerException("remote agent '" + name + "' cancelled the task" + said);
      default -> throw new A2aPeerException("remote agent '" + name + "' failed the task" + said);
    }
  }

  /**
   * @param returnImmediately for a new task: its id at once, so that a task past the time-out can be cancelled by it.
   *     A message to a task that waits for input waits for the answer instead: at once, the task would still read
   *     as waiting for input.
   */
  private ObjectNode sendParams(JsonNode arguments, boolean returnImmediately) {
    ObjectNode message = JSON.createObjectNode().put("messageId", UUID.randomUUID().toString())
        .put("role", A2aProtocol.ROLE_USER);
    message.putArray("parts").addObject().put("text", arguments.path("message").asText());
    if (arguments.path("taskId").isTextual()) {
      message.put("taskId", arguments.get("taskId").asText());
    }
    if (arguments.path("contextId").isTextual()) {
      message.put("contextId", arguments.get("contextId").asText());
    }
    ObjectNode params = JSON.createObjectNode();
    params.set("message", message);
    params.putObject("configuration").put("returnImmediately", returnImmediately).putArray("acceptedOutputModes")
        .add("text/plain");
    return params;
  }

  private RemoteCard card(Instant deadline) throws IOException, A2aPeerException, TimeoutException,
      InterruptedException {
    RemoteCard read = card.get();
    if (read != null) {
      return read;
    }
    try {
      read = RemoteCard.of(client.card(deadline), name, settings.url());
    } catch (IOException | A2aPeerException | TimeoutException e) {
      cardProblem = e.getMessage();
      throw e;
    }
    card.set(read);
    return read;
  }

  private static JsonNode parse(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String toString() {
    return name;
  }
}
