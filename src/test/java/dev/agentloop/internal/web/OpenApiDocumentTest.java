package dev.agentloop.internal.web;

import static dev.agentloop.ApiClient.JSON;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.agentloop.AgentLoopTest;
import dev.agentloop.ApiClient;
import io.swagger.v3.core.util.Json31;
import io.swagger.v3.oas.models.OpenAPI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * The OpenAPI document of AgentLoop's API: generated from the controllers by springdoc (a test dependency only),
 * documented by {@link ApiDocumentation}, checked in as {@code docs/api/openapi.json}, packed into the jar and
 * served at {@code GET /api/openapi.json}. A controller change that the checked-in document does not show fails
 * here, and so does an endpoint without documentation.
 */
@AgentLoopTest
class OpenApiDocumentTest {

  /** The checked-in document (the tests run in the repository's root). */
  static final Path DOCUMENT = Path.of("docs/api/openapi.json");
  private static final String REGENERATE = "mvn -B -pl modules/agentloop -am -Dagentloop.modeler-checks.skip"
      + " -Dsurefire.failIfNoSpecifiedTests=false -Dtest=OpenApiDocumentTest -Dagentloop.openapi.write=true test";

  /** {@code -Dagentloop.openapi.write=true}: write the generated document instead of comparing. */
  private static final boolean WRITE = Boolean.getBoolean("agentloop.openapi.write");

  @LocalServerPort int port;
  @Autowired @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping mappings;

  @Test
  void should_check_in_the_document_that_the_controllers_generate() throws Exception {
    HttpResponse<String> response = ApiClient.anonymous(port).get("/v3/api-docs");
    ObjectNode generated = ApiDocumentation.describe(ApiClient.body(response, 200), ApiDocumentation.DEFAULT_BASE_PATH);
    String text = JSON.writerWithDefaultPrettyPrinter().writeValueAsString(generated) + "\n";

    if (WRITE) {
      Files.writeString(DOCUMENT, text);
    } else if (!JSON.readTree(Files.readString(DOCUMENT)).equals(generated)) {
      Path fresh = Path.of("target/openapi.json");
      Files.writeString(fresh, text);
      fail(DOCUMENT + " is not what the controllers generate (the generated one is in " + fresh + "): regenerate it"
          + " with\n  " + REGENERATE + "\nand commit it");
    }
  }

  @Test
  void should_serve_a_document_that_parses_and_whose_references_all_resolve() throws Exception {
    assumeFalse(WRITE, "the jar serves the document of before the write; the next build serves the new one");
    HttpResponse<String> response = ApiClient.as(port, "reviewer").get("/api/openapi.json");

    JsonNode served = ApiClient.body(response, 200);
    assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(served.at("/servers/0/url").asText()).isEqualTo("/api");
    ObjectNode checkedIn = (ObjectNode) JSON.readTree(Files.readString(DOCUMENT));
    assertThat(served).as("the checked-in document, its server set").isEqualTo(OpenApiController.served(checkedIn, "/api"));
    OpenAPI parsed = Json31.mapper().readValue(response.body(), OpenAPI.class);
    assertThat(parsed.getInfo().getTitle()).isEqualTo("AgentLoop API");
    assertThat(parsed.getComponents().getSecuritySchemes()).containsOnlyKeys("basicAuth", "camundaSession");
    List<String> unresolved = new ArrayList<>();
    served.findValues("$ref").forEach(ref -> {
      if (served.at(ref.asText().substring(1)).isMissingNode()) {
        unresolved.add(ref.asText());
      }
    });
    assertThat(unresolved).as("references to nothing").isEmpty();
    assertThat(ApiClient.anonymous(port).get("/api/openapi.json").statusCode()).as("like every resource of the API")
        .isEqualTo(401);
  }

  @Test
  void should_document_every_mapping_of_the_controllers_and_nothing_else() throws Exception {
    assumeFalse(WRITE, "the jar serves the document of before the write; the next build serves the new one");
    Set<String> mapped = new TreeSet<>();
    mappings.getHandlerMethods().forEach((info, method) -> {
      if (method.getBeanType().getPackageName().equals(OpenApiController.class.getPackageName())) {
        info.getPatternValues().forEach(pattern -> info.getMethodsCondition().getMethods().forEach(verb ->
            mapped.add(verb.name() + " " + pattern.substring(ApiDocumentation.DEFAULT_BASE_PATH.length()))));
      }
    });
    JsonNode served = JSON.readTree(ApiClient.as(port, "reviewer").get("/api/openapi.json").body());
    Set<String> documented = new TreeSet<>();
    served.get("paths").fields().forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
      documented.add(operation.getKey().toUpperCase() + " " + path.getKey());
      assertThat(operation.getValue().path("summary").asText()).as("summary of %s", path.getKey()).isNotBlank();
      assertThat(operation.getValue().path("responses").has("401")).as("401 of %s", path.getKey()).isTrue();
    }));

    assertThat(mapped).as("AgentLoop's controllers map these").hasSizeGreaterThan(10);
    assertThat(documented).as("the served document lists exactly what the controllers map; regenerate it with "
        + REGENERATE).isEqualTo(mapped);
  }

  @Test
  void should_refuse_to_describe_an_operation_that_has_no_documentation() throws Exception {
    JsonNode generated = JSON.readTree("""
        {"openapi": "3.1.0", "paths": {
          "/api/runs/{id}": {"get": {"parameters": [{"name": "id", "in": "path"}], "responses": {"200": {}}}},
          "/api/runs/{id}/shred": {"post": {"responses": {"200": {}}}}}}""");

    assertThatThrownBy(() -> ApiDocumentation.describe(generated, "/api"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("POST /runs/{id}/shred").hasMessageNotContaining("GET /runs/{id}");
  }

  @Test
  void should_refuse_a_parameter_without_description_and_a_path_outside_the_api() throws Exception {
    JsonNode unexplained = JSON.readTree("""
        {"paths": {"/api/runs/{id}": {"get": {"parameters": [{"name": "shoeSize", "in": "query"}]}}}}""");
    JsonNode outside = JSON.readTree("""
        {"paths": {"/actuator/health": {"get": {}}}}""");

    assertThatThrownBy(() -> ApiDocumentation.describe(unexplained, "/api")).hasMessageContaining("shoeSize");
    assertThatThrownBy(() -> ApiDocumentation.describe(outside, "/api")).hasMessageContaining("/actuator/health");
  }

  @Test
  void should_name_the_api_path_of_the_application_as_the_server() throws Exception {
    ObjectNode document = (ObjectNode) JSON.readTree(Files.readString(DOCUMENT));

    JsonNode served = OpenApiController.served(document, "/camunda/agentloop/api");

    assertThat(served.at("/servers/0/url").asText()).isEqualTo("/camunda/agentloop/api");
    assertThat(served.get("servers")).hasSize(1);
    assertThat(document.at("/servers/0/url").asText()).as("the document read stays as it is").isEqualTo("/api");
  }
}
