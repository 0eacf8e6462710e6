package com.example.plain;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;

/** AgentLoop in an application without Camunda's webapps and engine REST API: it starts and serves its API. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ExtendWith(OutputCaptureExtension.class)
class EngineOnlyHostTest {

  @LocalServerPort int port;
  @Autowired ProcessEngine engine;

  @Test
  void should_start_deploy_and_serve_its_api_without_webapps_or_engine_rest(CapturedOutput startup) throws Exception {
    assertThat(engine.getRepositoryService().createProcessDefinitionQuery().processDefinitionKey("react-agent").count())
        .isOne();
    HttpResponse<String> breakers = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://localhost:" + port + "/api/breakers"))
        .header("Authorization", "Basic " + Base64.getEncoder().encodeToString("admin:admin".getBytes(StandardCharsets.UTF_8)))
        .build(), HttpResponse.BodyHandlers.ofString());

    assertThat(breakers.statusCode()).as(breakers.body()).isEqualTo(200);
    assertThat(startup.getAll()).contains("no Camunda webapps in this application")
        .contains("no Camunda engine REST API in this application");
  }
}
