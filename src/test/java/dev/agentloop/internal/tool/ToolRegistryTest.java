package dev.agentloop.internal.tool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.TestTools;
import dev.agentloop.spi.AgentTool;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String ECHO_SCHEMA = """
      {"type": "object",
       "properties": {"text": {"type": "string"}, "times": {"type": "integer"}},
       "required": ["text"], "additionalProperties": false}
      """;

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** A tool that answers with its own name. */
  private static AgentTool tool(String name, JsonNode parameters) {
    return TestTools.tool(name, false, parameters, arguments -> name);
  }

  private static AgentTool echo() {
    return tool("echo", json(ECHO_SCHEMA));
  }

  @Test
  void should_find_registered_tools_by_name_in_registration_order() {
    // given
    AgentTool echo = echo();
    AgentTool other = tool("other-tool_2", json("{\"type\": \"object\"}"));

    // when
    ToolRegistry registry = new ToolRegistry(List.of(echo, other));

    // then
    assertThat(registry.names()).containsExactly("echo", "other-tool_2");
    assertThat(registry.find("echo")).containsSame(echo);
    assertThat(registry.contains("other-tool_2")).isTrue();
    assertThat(registry.find("missing")).isEmpty();
    assertThat(registry.contains("missing")).isFalse();
  }

  @Test
  void should_reject_duplicate_names() {
    assertThatThrownBy(() -> new ToolRegistry(List.of(echo(), echo())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("two tools are named 'echo'");
  }

  @Test
  void should_reject_invalid_names() {
    JsonNode schema = json("{\"type\": \"object\"}");

    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("read file", schema))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tool name 'read file' must match [A-Za-z0-9_-]{1,64}");
    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("", schema))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tool name '' must match");
    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("a".repeat(65), schema))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tool name '" + "a".repeat(65) + "' must match");
    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("wetter.heute", schema))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tool name 'wetter.heute' must match");
  }

  @Test
  void should_accept_a_name_of_64_characters() {
    ToolRegistry registry = new ToolRegistry(List.of(tool("a".repeat(64), json("{\"type\": \"object\"}"))));

    assertThat(registry.names()).containsExactly("a".repeat(64));
  }

  @Test
  void should_reject_a_schema_that_is_not_of_type_object() {
    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("s", json("{\"type\": \"string\"}")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tool 's': parameters must be a JSON Schema of type object");
    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("untyped", json("{\"properties\": {}}")))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tool 'untyped': parameters must be a JSON Schema of type object");
    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("none", null))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("tool 'none': parameters must be a JSON Schema of type object");
  }

  @Test
  void should_reject_a_schema_with_an_unresolvable_reference_at_start() {
    JsonNode schema = json("{\"type\": \"object\", \"properties\": {\"x\": {\"$ref\": \"#/nowhere\"}}}");

    assertThatThrownBy(() -> new ToolRegistry(List.of(tool("broken", schema))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("tool 'broken': invalid parameters schema: ");
  }

  @Test
  void should_find_no_violations_for_valid_arguments() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThat(registry.violations("echo", json("{\"text\": \"hi\", \"times\": 2}"))).isEmpty();
  }

  @Test
  void should_report_a_missing_required_property() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThat(registry.violations("echo", json("{}")))
        .containsExactly("required property 'text' not found");
  }

  @Test
  void should_report_a_property_of_the_wrong_type() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThat(registry.violations("echo", json("{\"text\": \"hi\", \"times\": \"twice\"}")))
        .containsExactly("/times: string found, integer expected");
  }

  @Test
  void should_report_an_additional_property() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThat(registry.violations("echo", json("{\"text\": \"hi\", \"loud\": true}")))
        .containsExactly("property 'loud' is not defined in the schema and the schema does not allow additional properties");
  }

  @Test
  void should_report_every_violation() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThat(registry.violations("echo", json("{\"times\": 1.5, \"loud\": true}")))
        .containsExactlyInAnyOrder(
            "required property 'text' not found",
            "/times: number found, integer expected",
            "property 'loud' is not defined in the schema and the schema does not allow additional properties");
  }

  @Test
  void should_report_arguments_that_are_not_an_object() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThat(registry.violations("echo", json("[1, 2]"))).containsExactly("array found, object expected");
  }

  @Test
  void should_refuse_to_check_arguments_of_an_unknown_tool() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThatThrownBy(() -> registry.violations("nope", json("{}")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("unknown tool nope");
  }

  @Test
  void should_register_a_remote_tool_like_any_tool_but_know_that_it_runs_elsewhere() {
    // given
    RemoteTool lookup = RemoteTool.of("crm_lookup", "Looks a customer up",
        "{\"type\": \"object\", \"properties\": {\"customerId\": {\"type\": \"string\"}}, \"required\": [\"customerId\"]}",
        true);

    // when
    ToolRegistry registry = new ToolRegistry(List.of(echo(), lookup));

    // then its schema is checked here, its calls need approval like a local tool's, and it never runs here
    assertThat(registry.isRemote("crm_lookup")).isTrue();
    assertThat(registry.isRemote("echo")).isFalse();
    assertThat(registry.isRemote("missing")).isFalse();
    assertThat(registry.violations("crm_lookup", json("{}"))).containsExactly("required property 'customerId' not found");
    assertThat(registry.find("crm_lookup").orElseThrow().sideEffects()).isTrue();
    assertThatThrownBy(() -> lookup.execute(json("{\"customerId\": \"C-1\"}")))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessage("'crm_lookup' runs on remote workers, not in this application");
  }

  @Test
  void should_reject_a_remote_tool_named_like_a_local_one() {
    RemoteTool remoteEcho = RemoteTool.of("echo", "Echoes remotely", "{\"type\": \"object\"}", false);

    assertThatThrownBy(() -> new ToolRegistry(List.of(echo(), remoteEcho)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("two tools are named 'echo'");
  }

  @Test
  void should_name_the_remote_tool_whose_declaration_is_unusable() {
    assertThatThrownBy(() -> RemoteTool.of("crm_lookup", "Looks a customer up", "{type: object", false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("remote tool 'crm_lookup': parameters must be a JSON Schema as JSON text: ");
    assertThatThrownBy(() -> RemoteTool.of("crm_lookup", " ", "{\"type\": \"object\"}", false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("remote tool 'crm_lookup': description must not be blank");
    assertThatThrownBy(() -> new ToolRegistry(List.of(RemoteTool.of("crm_lookup", "Looks up", "{\"type\": \"string\"}",
        false)))).hasMessage("tool 'crm_lookup': parameters must be a JSON Schema of type object");
  }

  @Test
  void should_keep_its_tools_unmodifiable() {
    ToolRegistry registry = new ToolRegistry(List.of(echo()));

    assertThatThrownBy(() -> registry.names().clear()).isInstanceOf(UnsupportedOperationException.class);
  }
}
