package dev.agentloop.internal.tool.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * What a stdio server writes to its standard output, line by line: JSON-RPC messages pass as they are; a banner,
 * a log line, a JSON value that is no message or half a message are each ignored, said once, then at a bounded
 * rate, never with a stack trace.
 */
class StdoutLinesTest {

  private final AtomicLong now = new AtomicLong();
  private ListAppender<ILoggingEvent> lines;
  private StdoutLines stdout;

  @BeforeEach
  void reader() {
    Logger logger = (Logger) LoggerFactory.getLogger("test.stdout." + System.nanoTime());
    logger.setLevel(Level.INFO);
    lines = new ListAppender<>();
    lines.start();
    logger.addAppender(lines);
    stdout = new StdoutLines(McpJsonDefaults.getMapper(), logger, "crm", Duration.ofMinutes(5), now::get);
  }

  @Test
  void should_pass_json_rpc_messages_as_they_are() throws Exception {
    McpSchema.JSONRPCMessage response = McpSchema.deserializeJsonRpcMessage(stdout,
        "{\"jsonrpc\": \"2.0\", \"id\": 7, \"result\": {\"tools\": []}}");

    assertThat(response).isInstanceOfSatisfying(McpSchema.JSONRPCResponse.class,
        message -> assertThat(message.id()).isEqualTo(7));
    assertThat(lines.list).isEmpty();
  }

  @Test
  void should_hand_the_sdk_a_notification_nobody_hears_in_place_of_each_kind_of_junk() throws Exception {
    for (String junk : new String[] {"Server running on stdio", "{\"status\": \"ready\"}", "42", "{\"jsonrpc\": \"2.0\",",
        ""}) {
      McpSchema.JSONRPCMessage message = McpSchema.deserializeJsonRpcMessage(stdout, junk);

      assertThat(message).as(junk).isInstanceOfSatisfying(McpSchema.JSONRPCNotification.class,
          notification -> assertThat(notification.method()).isEqualTo(McpSchema.METHOD_NOTIFICATION_MESSAGE));
    }
    assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly("AGENTLOOP-901 MCP server"
        + " 'crm' wrote a line to its standard output that is no JSON-RPC message; it is ignored (a stdio server writes"
        + " only JSON-RPC there, its own logs to standard error): 'Server running on stdio'");
  }

  @Test
  void should_say_again_at_most_once_per_interval_with_how_many_lines_were_ignored() throws Exception {
    // a log line every 10 s for 10 minutes, one of them long
    for (int line = 0; line < 60; line++) {
      McpSchema.deserializeJsonRpcMessage(stdout, line == 30 ? "x".repeat(500) : "tick " + line);
      now.addAndGet(Duration.ofSeconds(10).toNanos());
    }

    assertThat(lines.list).extracting(ILoggingEvent::getFormattedMessage).hasSize(2).last().asString()
        .isEqualTo("AGENTLOOP-901 MCP server 'crm' wrote 30 more lines to its standard output that are no JSON-RPC"
            + " messages (ignored), the last: '" + "x".repeat(StdoutLines.SHOWN_CHARS) + "…'");
    assertThat(lines.list).allSatisfy(line -> assertThat(line.getThrowableProxy()).isNull());
  }
}
