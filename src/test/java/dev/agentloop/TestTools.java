package dev.agentloop;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.tool.AgentTool;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

/** Tools that misbehave on purpose, registered like any tool bean. */
@TestConfiguration(proxyBeanMethods = false)
public class TestTools {

  static final JsonNode NO_ARGUMENTS = parse("{\"type\": \"object\", \"properties\": {}}");

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

  @Bean
  AgentTool noopTool() {
    return tool("noop", false, arguments -> "ok");
  }

  /** A tool body that may throw anything. */
  public interface Body {
    String run(JsonNode arguments) throws Exception;
  }

  public static AgentTool tool(String name, boolean sideEffects, Body body) {
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
        return NO_ARGUMENTS;
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

  private static JsonNode parse(String json) {
    try {
      return new ObjectMapper().readTree(json);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
