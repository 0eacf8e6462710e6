package dev.agentloop.trace;

import dev.agentloop.AgentLoopTest;
import dev.agentloop.cluster.PostgresServer;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Trace retention on a real PostgreSQL: the whole app on a database of its own, closed after the
 * class while the shared PostgreSQL server still runs.
 */
@AgentLoopTest
@DirtiesContext
class TraceRetentionOnPostgresTest extends TraceRetentionScenarios {

  @DynamicPropertySource
  static void onPostgres(DynamicPropertyRegistry properties) {
    PostgresServer.Database database = PostgresServer.newDatabase("retention");
    properties.add("spring.datasource.url", database::jdbcUrl);
    properties.add("spring.datasource.username", database::user);
    properties.add("spring.datasource.password", database::password);
  }
}
