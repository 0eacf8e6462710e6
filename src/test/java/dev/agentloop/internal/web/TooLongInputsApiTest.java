package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import dev.agentloop.TestAgent;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Every input too long for the API, from the request line to one field, gets a problem document that
 * says the limit; none gets Tomcat's HTML page, a 500 or a message about something else.
 */
@AgentLoopTest
@ExtendWith(OutputCaptureExtension.class)
class TooLongInputsApiTest {

  @LocalServerPort int port;

  @Test
  void should_answer_a_request_line_over_eight_kilobytes_with_a_problem_document() throws IOException {
    String answer = raw("GET /api/runs?q=" + "x".repeat(9_000) + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 400").contains("application/problem+json").contains("\"status\":400")
        .contains("8192 bytes").doesNotContain("<html");
  }

  @Test
  void should_answer_headers_over_eight_kilobytes_with_a_problem_document() throws IOException {
    String answer = raw("GET /api/runs HTTP/1.1\r\nHost: localhost\r\nX-Filler: " + "x".repeat(9_000)
        + "\r\nConnection: close\r\n\r\n");

    assertThat(answer).startsWith("HTTP/1.1 400").contains("application/problem+json").contains("8192 bytes")
        .doesNotContain("<html");
  }

  @Test
  void should_answer_a_body_over_the_limit_with_413_saying_the_limit(CapturedOutput output) throws IOException {
    ApiClient operator = ApiClient.as(port, "operator");
    String huge = "{\"question\": \"" + "x".repeat(25 * 1024 * 1024) + "\"}";
    int before = output.length();

    assertProblem(operator.post("/api/runs", huge), 413, "at most 4194304 bytes");
    // sent in chunks, without a length: cut off where it passes the limit, the same answer
    String chunked = rawChunked("/api/runs", 5 * 1024 * 1024);
    assertThat(chunked).startsWith("HTTP/1.1 413").contains("application/problem+json").contains("at most 4194304 bytes");
    assertThat(output.toString().substring(before)).doesNotContain(" ERROR ").doesNotContain("\tat ");
  }

  @Test
  void should_name_the_limit_of_a_field_that_is_too_long() {
    ApiClient operator = ApiClient.as(port, "operator");

    assertProblem(operator.post("/api/runs", "{\"question\": \"" + "x".repeat(20_001) + "\", \"agent\": \""
        + TestAgent.KEY + "\"}"), 400, "at most 20000 characters");
    assertProblem(operator.post("/api/runs", "{\"question\": \"hi\", \"agent\": \"" + "a".repeat(256) + "\"}"), 400,
        "at most 255 characters");
    assertProblem(operator.get("/api/runs?q=" + "x".repeat(201)), 400, "at most 200 characters");
    assertProblem(operator.get("/api/runs?editedBy=" + "x".repeat(201)), 400, "at most 200 characters");
  }

  private String raw(String request) throws IOException {
    try (Socket socket = new Socket("localhost", port)) {
      socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** A JSON body of about {@code bytes} sent chunked, as operator; the answer as read (the server may close early). */
  private String rawChunked(String path, int bytes) throws IOException {
    try (Socket socket = new Socket("localhost", port)) {
      OutputStream out = socket.getOutputStream();
      String auth = java.util.Base64.getEncoder().encodeToString("operator:operator".getBytes(StandardCharsets.UTF_8));
      out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nAuthorization: Basic " + auth
          + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      try {
        chunk(out, "{\"question\": \"");
        byte[] block = "x".repeat(64 * 1024).getBytes(StandardCharsets.US_ASCII);
        for (int sent = 0; sent < bytes; sent += block.length) {
          chunk(out, block);
        }
        chunk(out, "\"}");
        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
      } catch (IOException e) {
        // the server answered and closed before the whole body was sent: read what it said
      }
      return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static void chunk(OutputStream out, String text) throws IOException {
    chunk(out, text.getBytes(StandardCharsets.US_ASCII));
  }

  private static void chunk(OutputStream out, byte[] data) throws IOException {
    out.write((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
    out.write(data);
    out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
  }
}
