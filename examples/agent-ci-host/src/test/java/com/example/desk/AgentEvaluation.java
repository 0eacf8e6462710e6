package com.example.desk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * The CI check of an agent change, as a CI client does it through AgentLoop's REST API: evaluate the agent's diagram
 * as a candidate on a data set (questions with expectations), wait until the evaluation is done, and fail with an
 * {@link AssertionError} naming every failed case — its question, what was expected and what the candidate answered.
 * A refused evaluation (a diagram that does not parse, a data set with a bad expectation) fails with AgentLoop's own
 * words. {@code CHANGED} cases pass: every expectation held, but the answer or its way differs. Plain HTTP and
 * Jackson: copy it into a host's tests.
 */
final class AgentEvaluation {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();
  private final String api;
  private final String authorization;
  private final Duration patience;

  /**
   * @param api AgentLoop's REST API, e.g. {@code http://localhost:8080/api}
   * @param patience how long the evaluation may take, all cases together
   */
  AgentEvaluation(String api, String user, String password, Duration patience) {
    this.api = api;
    this.authorization = "Basic " + Base64.getEncoder()
        .encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    this.patience = patience;
  }

  /** Evaluates the diagram file on the data-set file (a JSON array of cases) and fails on any failed case. */
  JsonNode assertPasses(String agent, Path diagram, Path cases) {
    try {
      return assertPasses(agent, Files.readString(diagram), JSON.readTree(cases.toFile()));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + diagram + " or " + cases, e);
    }
  }

  /** Evaluates the diagram (BPMN XML) on the cases and fails on any failed case; returns the evaluation. */
  JsonNode assertPasses(String agent, String diagram, JsonNode cases) {
    JsonNode evaluation = evaluate(agent, diagram, cases);
    List<String> failed = failures(evaluation);
    if (!failed.isEmpty()) {
      throw new AssertionError("The agent '" + agent + "' failed " + failed.size() + " of "
          + evaluation.at("/summary/cases").asInt() + " cases (evaluation " + evaluation.path("id").asText() + "):\n"
          + String.join("\n", failed));
    }
    return evaluation;
  }

  /** Starts the evaluation and returns it when it is done. */
  JsonNode evaluate(String agent, String diagram, JsonNode cases) {
    ObjectNode request = JSON.createObjectNode().put("diagram", diagram).put("reason", "CI check of a change");
    request.set("cases", cases);
    HttpResponse<String> started = send(HttpRequest.newBuilder(URI.create(api + "/agents/" + agent + "/evaluations"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(request.toString())));
    String id = body(started, 202, "AgentLoop refused to evaluate the agent '" + agent + "'").path("id").asText();
    Instant deadline = Instant.now().plus(patience);
    while (true) {
      JsonNode evaluation = body(send(HttpRequest.newBuilder(URI.create(api + "/evaluations/" + id)).GET()), 200,
          "AgentLoop did not show the evaluation " + id);
      String status = evaluation.path("status").asText();
      if (status.equals("DONE")) {
        return evaluation;
      }
      if (!status.equals("QUEUED") && !status.equals("RUNNING")) {
        throw new AssertionError("the evaluation " + id + " ended " + status + " before its cases were done");
      }
      if (Instant.now().isAfter(deadline)) {
        throw new AssertionError("the evaluation " + id + " is still " + status + " after " + patience + ": "
            + evaluation.path("summary"));
      }
      pause();
    }
  }

  /** Each failed case in words: question, the checks that failed (what was expected), the candidate's answer. */
  static List<String> failures(JsonNode evaluation) {
    List<String> failed = new ArrayList<>();
    for (JsonNode item : evaluation.path("cases")) {
      if (!item.path("verdict").asText().equals("FAILED")) {
        continue;
      }
      JsonNode result = item.path("result");
      StringBuilder text = new StringBuilder("- case ").append(item.path("caseNo").asInt()).append(": ")
          .append(item.has("recordedRun") && !item.path("recordedRun").isNull()
              ? "recorded run " + item.path("recordedRun").asText()
              : "\"" + item.at("/dataCase/question").asText() + "\"");
      for (JsonNode check : result.path("checks")) {
        if (!check.path("passed").asBoolean()) {
          text.append("\n    expected: ").append(check.path("detail").asText())
              .append(" [").append(check.path("name").asText()).append(']');
        }
      }
      if (!result.path("error").isMissingNode() && !result.path("error").isNull()) {
        text.append("\n    the candidate's run did not finish: ").append(result.path("error").asText());
      }
      JsonNode candidate = result.path("candidate");
      text.append("\n    answered: ").append(candidate.path("answer").isTextual()
          ? "\"" + candidate.path("answer").asText() + "\"" : "nothing (" + candidate.path("outcome").asText("no run")
          + ")");
      failed.add(text.toString());
    }
    return failed;
  }

  private HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return http.send(request.header("Authorization", authorization).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException("AgentLoop's API at " + api + " did not answer", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking AgentLoop's API", e);
    }
  }

  /** The response's JSON, or an AssertionError with the problem's words where the status is another. */
  private static JsonNode body(HttpResponse<String> response, int expected, String otherwise) {
    JsonNode body;
    try {
      body = JSON.readTree(response.body());
    } catch (IOException e) {
      throw new AssertionError(otherwise + " (HTTP " + response.statusCode() + "): " + response.body(), e);
    }
    if (response.statusCode() != expected) {
      throw new AssertionError(otherwise + " (HTTP " + response.statusCode() + "): "
          + body.path("detail").asText(response.body()));
    }
    return body;
  }

  /** The pause between two looks at the evaluation: its cases take the model's time. */
  private static void pause() {
    try {
      Thread.sleep(250);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the evaluation", e);
    }
  }
}
