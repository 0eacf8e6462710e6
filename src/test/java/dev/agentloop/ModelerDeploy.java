package dev.agentloop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;

/** Deploys a diagram as Camunda Modeler's "Deploy" does: one multipart POST to {@code /engine-rest/deployment/create}. */
public final class ModelerDeploy {

  private static final String BOUNDARY = "agentloop-boundary";

  private ModelerDeploy() {}

  /** The default agent's diagram under another process id and name, as an analyst saves a copy in Modeler. */
  public static String copyOfReactAgent(String processId, String name) {
    try {
      return Files.readString(Path.of("processes/react-agent.bpmn"))
          .replace("\"react-agent\"", "\"" + processId + "\"").replace("name=\"ReAct agent\"", "name=\"" + name + "\"");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static HttpResponse<String> deploy(ApiClient client, String fileName, String bpmn) {
    String body = part("deployment-name", fileName) + part("deployment-source", "Camunda Modeler")
        + "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"data\"; filename=\"" + fileName + "\"\r\n"
        + "Content-Type: application/octet-stream\r\n\r\n" + bpmn + "\r\n--" + BOUNDARY + "--\r\n";
    return client.send("/engine-rest/deployment/create", "POST", "multipart/form-data; boundary=" + BOUNDARY, body);
  }

  private static String part(String name, String value) {
    return "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
  }
}
