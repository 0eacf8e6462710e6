package dev.agentloop.benchmark;

import dev.agentloop.AgentLoopApplication;
import dev.agentloop.TestTools;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * {@link LoopFigures}' long runs on an H2 file database with H2's default {@code WRITE_DELAY}
 * (commits reach the file up to 500 ms later: not crash-safe, never shipped). With the crash-safe URL
 * a commit costs more than the engine's work, and the bare loop, whose asynchronous jobs commit twice
 * as often as the agent's steps, is the slower one; here the comparison is of the work itself.
 */
@Tag("benchmark")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@SpringBootTest(classes = AgentLoopApplication.class, properties = {
    "spring.datasource.url=jdbc:h2:file:./target/benchmark/loop-delayed-${random.uuid};DB_CLOSE_ON_EXIT=FALSE;QUERY_CACHE_SIZE=128",
    "camunda.bpm.process-engine-name=delayedwriteloopbenchmark",
    "agentloop.llm.scripted.script=classpath:scripts/benchmark-script.json",
    "logging.level.dev.agentloop=WARN"})
@ActiveProfiles("test")
@Import({TestTools.class, SqlCounter.class})
class DelayedWriteLoopBenchmark extends LoopFigures {

  @Override
  String title() {
    return "Agent loop per iteration (issues 2, 19): H2 file database, H2's default WRITE_DELAY (not crash-safe)";
  }

  @Override
  boolean shortRuns() {
    return false;
  }
}
