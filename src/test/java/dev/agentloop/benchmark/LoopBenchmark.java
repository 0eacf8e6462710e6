package dev.agentloop.benchmark;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestTools;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@link LoopFigures} on an H2 file database with the demo app's crash-safe URL ({@code WRITE_DELAY=0}:
 * every commit is written before it returns, see RestartDurabilityTest) and the shipped settings.
 */
@Tag("benchmark")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SpringBootTest(classes = AgentLoopApplication.class, properties = {
    "spring.datasource.url=jdbc:h2:file:./target/benchmark/loop-${random.uuid};DB_CLOSE_ON_EXIT=FALSE;WRITE_DELAY=0;QUERY_CACHE_SIZE=128",
    "camunda.bpm.process-engine-name=loopbenchmark",
    "agentloop.llm.scripted.script=classpath:scripts/benchmark-script.json",
    "logging.level.dev.agentloop=WARN"})
@ActiveProfiles("test")
@Import({TestTools.class, SqlCounter.class})
class LoopBenchmark extends LoopFigures {

  @Override
  String title() {
    return "Agent loop: H2 file database (WRITE_DELAY=0), one node";
  }

  @Override
  double throughputTarget() {
    return 600;
  }
}
