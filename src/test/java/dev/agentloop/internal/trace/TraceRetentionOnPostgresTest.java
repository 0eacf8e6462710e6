package dev.agentloop.internal.trace;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestAgent;
import dev.agentloop.TestTools;
import dev.agentloop.cluster.PostgresServer;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Trace retention on a real PostgreSQL: the whole app on a database of its own. No web server: the
 * engine REST API's long-polling handler is one per JVM, and closing a second server would stop it
 * for the context the other tests share. Closed after the class, while the PostgreSQL server runs.
 */
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.MOCK)
@ActiveProfiles("test")
@Import({TestTools.class, TestAgent.class})
@DirtiesContext
class TraceRetentionOnPostgresTest extends TraceRetentionScenarios {

  @DynamicPropertySource
  static void onPostgres(DynamicPropertyRegistry properties) {
    PostgresServer.Database database = PostgresServer.newDatabase("retention");
    properties.add("spring.datasource.url", database::jdbcUrl);
    properties.add("spring.datasource.username", database::user);
    properties.add("spring.datasource.password", database::password);
    // the engine registered JVM-wide as "default" stays the shared context's, which /engine-rest serves
    properties.add("camunda.bpm.process-engine-name", () -> "retentionOnPostgres");
  }
}
