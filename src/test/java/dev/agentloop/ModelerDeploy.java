package dev.agentloop;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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
    return deploy(client, fileName, Map.of(fileName, bpmn));
  }

  /**
   * A deployment of several files (in the map's order), named {@code deploymentName}, as Modeler deploys a diagram
   * with the files it links.
   */
  public static HttpResponse<String> deploy(ApiClient client, String deploymentName, Map<String, String> files) {
    StringBuilder body = new StringBuilder(part("deployment-name", deploymentName))
        .append(part("deployment-source", "Camunda Modeler"));
    // Modeler's one file is the part "data"; further files need parts of their own names
    files.forEach((fileName, content) -> body.append("--").append(BOUNDARY)
        .append("\r\nContent-Disposition: form-data; name=\"").append(body.indexOf("name=\"data\"") < 0 ? "data"
            : fileName).append("\"; filename=\"")
        .append(fileName).append("\"\r\nContent-Type: application/octet-stream\r\n\r\n").append(content)
        .append("\r\n"));
    body.append("--").append(BOUNDARY).append("--\r\n");
    return client.send("/engine-rest/deployment/create", "POST", "multipart/form-data; boundary=" + BOUNDARY,
        body.toString());
  }

  private static String part(String name, String value) {
    return "--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n" + value + "\r\n";
  }
}
