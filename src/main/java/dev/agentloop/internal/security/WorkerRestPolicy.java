package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.io.IOException;
import java.util.Iterator;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a member of {@code agent-workers} may call on the engine REST API: exactly what a remote tool
 * worker needs, for external tasks of tool topics ({@code agentloop.tool.*}) only. Camunda cannot say
 * this itself: fetch-and-lock needs READ_INSTANCE and UPDATE_INSTANCE on the process definition, and
 * those rights open every other instance call too (variables, suspension, modification), while no
 * right names a topic.
 *
 * <p>Allowed, all {@code POST}: {@code /external-task/fetchAndLock} for tool topics that name the
 * variables they fetch among {@code callId}, {@code tool}, {@code arguments} (filters such as
 * {@code processVariables} only select tasks and stay allowed); and for a task of a tool
 * topic {@code complete} (local variables {@code result} or {@code error} only), {@code failure},
 * {@code bpmnError} (an error code the agent's diagram catches, so a person decides in agentStuck),
 * {@code extendLock}, {@code unlock} and {@code lock}. No call may write process variables: they steer
 * the agent's gateways. These are the calls of Camunda's {@code camunda-external-task-client} 7.24 apart
 * from {@code setVariables} and the lazy load of file variables, which read or write the instance.
 * Everything else is refused. The checks of fetch-and-lock, which need no engine, are {@link FetchAndLockPolicy}'s.
 * Thread-safe.
 */
final class WorkerRestPolicy {

  /** Where an external task stands, read without the worker's authorization. */
  record ExternalTaskFacts(String topic, String processDefinitionId) {}

  /** What the decision needs from the engine. */
  interface Engine {

    /** The task, or empty when there is none with that id (the engine then answers 404 itself). */
    Optional<ExternalTaskFacts> externalTask(String id);

    /** Whether the process definition's diagram catches a BPMN error with that code. */
    boolean catches(String processDefinitionId, String errorCode);
  }

  /**
   * {@code null} reason: allowed.
   *
   * @param malformed the call is one a worker may make, but with a body the engine would fail on (a 400,
   *     not a 403: the worker did nothing it may not do)
   */
  record Decision(String refusal, boolean malformed) {

    static final Decision ALLOWED = new Decision(null, false);

    Decision(String refusal) {
      this(refusal, false);
    }

    boolean allowed() {
      return refusal == null;
    }

    /** A call no remote tool worker makes, or makes only for tasks that are not its. */
    static Decision refused(String why) {
      return new Decision("a member of " + AgentLoopGroups.WORKERS + " may only serve tool tasks: " + why);
    }
  }

  private static final Pattern FETCH = Pattern.compile("/external-task/fetchAndLock");
  private static final Pattern TASK_CALL =
      Pattern.compile("/external-task/([A-Za-z0-9-]+)/(complete|failure|bpmnError|extendLock|unlock|lock)");
  private static final Set<String> RESULTS = Set.of(ReactAgentProcess.RESULT, ReactAgentProcess.ERROR);
  static final String PREFIX = ReactAgentProcess.TOPIC_REMOTE_TOOL_PREFIX;
  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

  private final Engine engine;

  WorkerRestPolicy(Engine engine) {
    this.engine = engine;
  }

  /**
   * @param path the path below the engine REST API's root, e.g. {@code /external-task/fetchAndLock}
   * @param body the request body as sent
   */
  Decision check(String method, String path, byte[] body) {
    Matcher task = TASK_CALL.matcher(path);
    boolean fetch = FETCH.matcher(path).matches();
    if (!"POST".equals(method) || !(fetch || task.matches())) {
      return Decision.refused(method + " " + path + " is not a call of a remote tool worker");
    }
    JsonNode json;
    try {
      json = body.length == 0 ? JSON.createObjectNode() : JSON.readTree(body);
    } catch (JsonProcessingException e) {
      return Decision.refused("the body is no JSON object that could be checked: " + e.getOriginalMessage());
    } catch (IOException e) {
      return Decision.refused("the body could not be read: " + e.getMessage());
    }
    if (json == null || !json.isObject()) {
      return Decision.refused("the body must be a JSON object");
    }
    return fetch ? FetchAndLockPolicy.check(json) : checkTaskCall(task.group(1), task.group(2), json);
  }

  private Decision checkTaskCall(String taskId, String call, JsonNode request) {
    Optional<ExternalTaskFacts> task = engine.externalTask(taskId);
    if (task.isEmpty()) {
      return Decision.ALLOWED;
    }
    if (!isToolTopic(task.get().topic())) {
      return Decision.refused("external task " + taskId + " has topic '" + task.get().topic() + "', which is not a tool"
          + " topic (" + PREFIX + "<tool>)");
    }
    if (hasEntries(request.get("variables"))) {
      return Decision.refused(call + " may not set process variables: they steer the agent");
    }
    return switch (call) {
      case "complete" -> checkResult(request.get("localVariables"));
      case "failure" -> hasEntries(request.get("localVariables"))
          ? Decision.refused("failure may not set variables: the engine retries the task, or raises an incident")
          : Decision.ALLOWED;
      case "bpmnError" -> checkError(task.get(), request.path("errorCode").asText(""));
      default -> Decision.ALLOWED;
    };
  }

  private static Decision checkResult(JsonNode localVariables) {
    if (localVariables != null && localVariables.isObject()) {
      for (Iterator<String> names = localVariables.fieldNames(); names.hasNext(); ) {
        String name = names.next();
        if (!RESULTS.contains(name)) {
          return Decision.refused("complete: local variable '" + name + "' is not one of a tool call's "
              + sorted(RESULTS));
        }
      }
    } else if (localVariables != null && !localVariables.isNull()) {
      return Decision.refused("complete: localVariables must be a JSON object");
    }
    return Decision.ALLOWED;
  }

  private Decision checkError(ExternalTaskFacts task, String errorCode) {
    return engine.catches(task.processDefinitionId(), errorCode) ? Decision.ALLOWED
        : Decision.refused("bpmnError '" + errorCode + "' is not caught by the agent's diagram; an uncaught error"
            + " would end the run with no person deciding (report technical trouble with failure)");
  }

  static boolean isToolTopic(String topic) {
    return topic != null && topic.startsWith(PREFIX) && topic.length() > PREFIX.length();
  }

  private static boolean hasEntries(JsonNode node) {
    return node != null && !node.isNull() && !(node.isObject() && node.isEmpty());
  }

  static String sorted(Set<String> names) {
    return names.stream().sorted().toList().toString();
  }
}
