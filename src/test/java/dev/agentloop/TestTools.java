package dev.agentloop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.tool.AgentTool;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** Tools that misbehave on purpose, or change the world, registered like any tool bean. */
@TestConfiguration(proxyBeanMethods = false)
public class TestTools {

  /** How many mails {@code send_email} "sent" in this JVM: tests compare before and after. */
  public static final AtomicInteger SENT = new AtomicInteger();

  static final JsonNode NO_ARGUMENTS = parse("{\"type\": \"object\", \"properties\": {}}");
  static final JsonNode EMAIL = parse("""
      {"type": "object", "properties": {"to": {"type": "string", "pattern": "^[^@]+@[^@]+$"},
       "subject": {"type": "string", "minLength": 1}}, "required": ["to", "subject"], "additionalProperties": false}
      """);

  @Bean
  AgentTool explodingTool() {
    return tool("explode", false, arguments -> {
      throw new IllegalStateException("boom: this test tool always fails");
    });
  }

  @Bean
  AgentTool hangingTool() {
    return tool("hang", false, arguments -> {
      Thread.sleep(600_000);
      return "never";
    });
  }

  /** While set, {@code unreliable} fails like a service that is down (an I/O error: transient). */
  public static final AtomicBoolean UNRELIABLE_DOWN = new AtomicBoolean(true);

  /** Fails while {@link #UNRELIABLE_DOWN} is set; its breaker opens at the first failure (application-test.yaml). */
  @Bean
  AgentTool unreliableTool() {
    return tool("unreliable", false, arguments -> {
      if (UNRELIABLE_DOWN.get()) {
        throw new IOException("connection refused (the test service is down)");
      }
      return "unreliable is back";
    });
  }

  @Bean
  AgentTool noopTool() {
    return tool("noop", false, arguments -> "ok");
  }

  /**
   * Pages of an archive, about 1,500 characters each, all alike but their number: page 3 holds the
   * vault code, which a long run needs at its end (the context digest's scenarios).
   */
  @Bean
  AgentTool archivePageTool() {
    return tool("archive_page", false, arguments -> archivePage(arguments.path("page").asText("?")));
  }

  public static String archivePage(String page) {
    StringBuilder text = new StringBuilder("Archive page ").append(page).append(". ");
    if ("3".equals(page)) {
      text.append("The vault code is 4711. ");
    }
    for (int i = 1; text.length() < 1_500; i++) {
      text.append("Entry ").append(page).append('.').append(i)
          .append(": minutes of the weekly meeting, the budget was discussed and nothing was decided. ");
    }
    return text.toString();
  }

  /** Answers with a NUL character, which PostgreSQL cannot hold in a text column. */
  @Bean
  AgentTool nulTextTool() {
    return tool("nul_text", false, arguments -> "before\0after");
  }

  /** Changes the world, so its calls wait for a person's approval. */
  @Bean
  AgentTool sendEmailTool() {
    return tool("send_email", true, EMAIL,
        arguments -> "sent to " + arguments.get("to").asText() + " (mail " + SENT.incrementAndGet() + ")");
  }

  /** Reads only, but is configured to wait for approval all the same (see AgentLoopTest). */
  public static final String AUDITED = "audited_lookup";

  @Bean
  AgentTool auditedLookupTool() {
    return tool(AUDITED, false, arguments -> "the record");
  }

  /** How many events {@code log_event} wrote in this JVM. */
  public static final AtomicInteger LOGGED = new AtomicInteger();

  /**
   * Changes the world too, but is configured to run without approval (see AgentLoopTest): a
   * call that would repeat it after an edit must still wait for a person.
   */
  @Bean
  AgentTool logEventTool() {
    return tool("log_event", true, arguments -> "logged event " + LOGGED.incrementAndGet());
  }

  /** A tool body that may throw anything. */
  public interface Body {
    String run(JsonNode arguments) throws Exception;
  }

  public static AgentTool tool(String name, boolean sideEffects, Body body) {
    return tool(name, sideEffects, NO_ARGUMENTS, body);
  }

  public static AgentTool tool(String name, boolean sideEffects, JsonNode parameters, Body body) {
    return new AgentTool() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public String description() {
        return "test tool " + name;
      }

      @Override
      public JsonNode parameters() {
        return parameters;
      }

      @Override
      public boolean sideEffects() {
        return sideEffects;
      }

      @Override
      public String execute(JsonNode arguments) throws Exception {
        return body.run(arguments);
      }
    };
  }

  public static JsonNode parse(String json) {
    try {
      return new ObjectMapper().readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
