package dev.agentloop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Real HTTP to the app under test, as one user with HTTP Basic credentials, or as nobody. */
public final class ApiClient {

  public static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();
  private final int port;
  private final String authorization;

  private ApiClient(int port, String authorization) {
    this.port = port;
    this.authorization = authorization;
  }

  /** A demo user of the test profile: reviewer, operator (password = user id), or the admin demo/demo. */
  public static ApiClient as(int port, String user, String password) {
    String credentials = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    return new ApiClient(port, "Basic " + credentials);
  }

  public static ApiClient as(int port, String user) {
    return as(port, user, user);
  }

  public static ApiClient anonymous(int port) {
    return new ApiClient(port, null);
  }

  public HttpResponse<String> get(String path) {
    return send(request(path).GET());
  }

  public HttpResponse<String> post(String path, String body) {
    return send(request(path).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  public HttpResponse<String> put(String path, String body) {
    return send(request(path).header("Content-Type", "application/json")
        .PUT(HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Any method and content type, e.g. to send what the API does not take. */
  public HttpResponse<String> send(String path, String method, String contentType, String body) {
    return send(request(path).header("Content-Type", contentType)
        .method(method, HttpRequest.BodyPublishers.ofString(body)));
  }

  /** Waits for the run's open task with this definition key, as the API lists it. */
  public JsonNode awaitTask(String run, String taskKey) {
    return await().atMost(Runs.PATIENCE).until(() -> {
      for (JsonNode task : body(get("/api/runs/" + run + "/tasks"), 200)) {
        if (task.get("taskDefinitionKey").asText().equals(taskKey)) {
          return task;
        }
      }
      return null;
    }, task -> task != null);
  }

  /** The JSON body of a response that must have the given status. */
  public static JsonNode body(HttpResponse<String> response, int status) {
    assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + response.body(), e);
    }
  }

  /** Asserts an RFC 9457 problem document with that status whose detail contains the words. */
  public static void assertProblem(HttpResponse<String> response, int status, String detail) {
    JsonNode problem = body(response, status);
    assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
        type -> assertThat(type).startsWith("application/problem+json"));
    assertThat(problem.get("status").asInt()).isEqualTo(status);
    assertThat(problem.get("title").asText()).isNotBlank();
    assertThat(problem.get("detail").asText()).contains(detail);
  }

  private HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    return authorization == null ? builder : builder.header("Authorization", authorization);
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
