package dev.agentloop.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

/**
 * One node's {@code /api/runs} and the engine REST API's deployments, over real HTTP as the admin
 * user {@code demo} with HTTP Basic credentials. Thread-safe.
 */
public final class NodeApi {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** The engine REST API's date format. */
  private static final DateTimeFormatter ENGINE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");
  private static final String CREDENTIALS =
      "Basic " + Base64.getEncoder().encodeToString("demo:demo".getBytes(StandardCharsets.UTF_8));

  private final String base;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  NodeApi(String base) {
    this.base = base;
  }

  /** Starts a run of an agent; fails unless the API answers 201. */
  public String start(String agent, String question) {
    String body = JsonNodeFactory.instance.objectNode().put("agent", agent).put("question", question).toString();
    HttpResponse<String> response = send(request("/api/runs").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
    expect(response, 201);
    return parse(response.body()).get("id").asText();
  }

  /**
   * Asks to start a run of an agent under a conversation id ({@code POST /api/runs}) and answers what the API
   * answered, whatever its status: a start may be refused (409) on purpose.
   */
  public HttpResponse<String> startUnder(String agent, String question, String conversationId) {
    String body = JsonNodeFactory.instance.objectNode().put("agent", agent).put("question", question)
        .put("conversationId", conversationId).toString();
    return send(request("/api/runs").header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Starts {@code count} runs of an agent, up to {@code parallel} requests at a time; the ids in order. */
  public List<String> startAll(String agent, int count, int parallel, String questionPrefix) {
    ExecutorService clients = Executors.newFixedThreadPool(parallel);
    try {
      List<CompletableFuture<String>> ids = IntStream.range(0, count)
          .mapToObj(i -> CompletableFuture.supplyAsync(() -> start(agent, questionPrefix + " #" + i), clients))
          .toList();
      return ids.stream().map(CompletableFuture::join).toList();
    } finally {
      clients.shutdownNow();
    }
  }

  /** The run as {@code GET /api/runs/{id}} shows it. */
  public JsonNode run(String id) {
    return find(id).orElseThrow(() -> new IllegalStateException("GET /api/runs/" + id + " answered 404"));
  }

  /** The run as {@code GET /api/runs/{id}} shows it, or empty when the node answers 404. */
  public Optional<JsonNode> find(String id) {
    HttpResponse<String> response = send(request("/api/runs/" + id).GET());
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    expect(response, 200);
    return Optional.of(parse(response.body()));
  }

  /** Every step of the run, superseded branches included, as {@code GET /api/runs/{id}/trace?branches=all} shows them. */
  public JsonNode trace(String id) {
    HttpResponse<String> response = send(request("/api/runs/" + id + "/trace?branches=all").GET());
    expect(response, 200);
    return parse(response.body()).get("steps");
  }

  /**
   * How many runs of an agent started after {@code since} have ended with an answer, by the engine's
   * history over its REST API: one cheap request however many runs there are.
   */
  public long answeredRuns(String agent, Instant since) {
    HttpResponse<String> response = send(request("/engine-rest/history/process-instance/count")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(answeredSince(agent, since).toString())));
    expect(response, 200);
    return parse(response.body()).get("count").asLong();
  }

  /** When the last of the runs of an agent started after {@code since} answered. */
  public Instant lastAnswer(String agent, Instant since) {
    ObjectNode query = answeredSince(agent, since);
    query.putArray("sorting").addObject().put("sortBy", "endTime").put("sortOrder", "desc");
    HttpResponse<String> response = send(request("/engine-rest/history/process-instance?firstResult=0&maxResults=1")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(query.toString())));
    expect(response, 200);
    return OffsetDateTime.parse(parse(response.body()).get(0).get("endTime").asText(), ENGINE_TIME).toInstant();
  }

  /** Any GET of the node's APIs as the admin user; fails unless it answers 200. */
  public JsonNode get(String path) {
    HttpResponse<String> response = send(request(path).GET());
    expect(response, 200);
    return parse(response.body());
  }

  /**
   * Any POST of a JSON body to the node's APIs as the admin user, as Tasklist or a script sends it;
   * fails unless it answers 2xx. The parsed answer, or an empty object for 204.
   */
  public JsonNode post(String path, String json) {
    HttpResponse<String> response = send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json)));
    if (response.statusCode() / 100 != 2) {
      expect(response, 200);
    }
    return response.body().isBlank() ? JSON.createObjectNode() : parse(response.body());
  }

  private static ObjectNode answeredSince(String agent, Instant since) {
    ObjectNode query = JsonNodeFactory.instance.objectNode().put("processDefinitionKey", agent).put("finished", true)
        .put("startedAfter", ENGINE_TIME.format(since.atOffset(ZoneOffset.UTC)));
    query.putArray("executedActivityIdIn").add(ReactAgentProcess.ANSWERED);
    return query;
  }

  /** Whether the node serves the API: an unknown run is 404 only once it is up and knows the user. */
  boolean isUp() {
    try {
      return http.send(request("/api/runs/no-such-run").GET().build(), HttpResponse.BodyHandlers.discarding())
          .statusCode() == 404;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /**
   * Deploys one BPMN file through {@code POST /engine-rest/deployment/create}, as an operator would
   * deploy a new agent; unchanged files are not deployed again.
   */
  public void deploy(String fileName, String bpmnXml) {
    String boundary = "agentloop-" + UUID.randomUUID();
    String body = formField(boundary, "deployment-name", fileName)
        + formField(boundary, "deploy-changed-only", "true")
        + "--" + boundary + "\r\nContent-Disposition: form-data; name=\"data\"; filename=\"" + fileName + "\"\r\n"
        + "Content-Type: application/xml\r\n\r\n" + bpmnXml + "\r\n--" + boundary + "--\r\n";
    HttpResponse<String> response = send(request("/engine-rest/deployment/create")
        .header("Content-Type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)));
    expect(response, 200);
  }

  private static String formField(String boundary, String name, String value) {
    return "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
  }

  private HttpRequest.Builder request(String path) {
    return HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30))
        .header("Authorization", CREDENTIALS);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static void expect(HttpResponse<String> response, int status) {
    if (response.statusCode() != status) {
      throw new IllegalStateException(response.request().method() + " " + response.uri() + " answered "
          + response.statusCode() + " instead of " + status + ": " + response.body());
    }
  }

  private static JsonNode parse(String body) {
    try {
      return JSON.readTree(body);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
