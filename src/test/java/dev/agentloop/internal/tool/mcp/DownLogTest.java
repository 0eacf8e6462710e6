package dev.agentloop.internal.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The log of a server that stays down: the cause once, then one line per interval with a count. */
class DownLogTest {

  @Test
  void should_log_a_cause_once_then_at_most_once_per_interval_with_the_count_and_a_new_cause_at_once() {
    Logger logger = (Logger) LoggerFactory.getLogger("test.downlog." + System.nanoTime());
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    AtomicLong now = new AtomicLong();
    DownLog log = new DownLog(logger, "crm", Duration.ofMinutes(5), now::get);

    // an attempt every 10 s for 10 minutes
    for (int attempt = 0; attempt < 60; attempt++) {
      log.failed("url http://crm/mcp: Connection refused");
      now.addAndGet(Duration.ofSeconds(10).toNanos());
    }

    assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
        "AGENTLOOP-014 MCP server 'crm' is not connected: url http://crm/mcp: Connection refused; trying again in the"
            + " background. Start the server, or correct agentloop.tools.mcp.crm",
        "AGENTLOOP-014 MCP server 'crm' is still not connected (30 more attempts failed): url http://crm/mcp:"
            + " Connection refused");
    assertThat(lines.list).allSatisfy(line -> assertThat(line.getThrowableProxy()).isNull());

    // a new cause is news, and so is the first failure after the server was back
    log.failed("url http://crm/mcp: 401 Unauthorized");
    log.connected();
    log.failed("url http://crm/mcp: 401 Unauthorized");
    assertThat(lines.list).hasSize(4);
  }
}
