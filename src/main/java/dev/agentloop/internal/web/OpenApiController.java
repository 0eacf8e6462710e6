package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/openapi.json}: the OpenAPI 3 document of this API, for people and for client generators.
 * It is the document checked in as {@code docs/api/openapi.json} (a test generates it from the controllers
 * and fails on drift) and packed into the jar, so no OpenAPI library runs in the application. Its paths are
 * relative to its server, which names the base path and context path this application serves the API
 * under. Any authenticated user may read it, like the breakers.
 */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/openapi.json", produces = "application/json")
class OpenApiController {

  /** Where the library's build puts the checked-in document. */
  static final String RESOURCE = "META-INF/agentloop/openapi.json";

  private final JsonNode document;
  private final String basePath;

  OpenApiController(String basePath) {
    this.document = read();
    this.basePath = basePath;
  }

  @GetMapping
  JsonNode document(HttpServletRequest request) {
    return served(document, request.getContextPath() + basePath);
  }

  /** The document with its one server at the API's real place (a copy: the one read stays as it is). */
  static JsonNode served(JsonNode document, String apiPath) {
    ObjectNode copy = document.deepCopy();
    copy.putArray("servers").addObject().put("url", apiPath)
        .put("description", "AgentLoop's API in this application");
    return copy;
  }

  private static JsonNode read() {
    try (InputStream in = OpenApiController.class.getClassLoader().getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(RESOURCE + " is missing from AgentLoop's jar: the build copies it from"
            + " docs/api/openapi.json");
      }
      return ApiJson.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + RESOURCE, e);
    }
  }
}
