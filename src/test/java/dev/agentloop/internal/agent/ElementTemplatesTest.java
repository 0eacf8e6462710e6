package dev.agentloop.internal.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.camunda.bpm.model.bpmn.Bpmn;
import org.camunda.bpm.model.bpmn.BpmnModelInstance;
import org.camunda.bpm.model.bpmn.impl.BpmnModelConstants;
import org.camunda.bpm.model.bpmn.instance.ServiceTask;
import org.camunda.bpm.model.bpmn.instance.Task;
import org.camunda.bpm.model.bpmn.instance.UserTask;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaField;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperties;
import org.camunda.bpm.model.bpmn.instance.camunda.CamundaProperty;
import org.junit.jupiter.api.Test;

/**
 * The agents in processes/ are built from the element templates in processes/element-templates/, as
 * Camunda Modeler applies them: every AgentLoop task names its template, holds the values the
 * template fixes, and has no extension property the template does not offer (Modeler hides those,
 * so an analyst could not see or change them). The templates' schema is checked by the build
 * (npm run templates); this checks that the diagrams match them.
 */
class ElementTemplatesTest {

  private static final Path PROCESSES = Path.of("processes");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void should_build_every_agent_task_in_processes_from_an_element_template() throws IOException {
    Map<String, JsonNode> templates = templates();
    List<String> problems = new ArrayList<>();
    List<Path> diagrams = diagrams();
    int checked = 0;
    for (Path diagram : diagrams) {
      BpmnModelInstance model = Bpmn.readModelFromFile(diagram.toFile());
      for (Task task : agentTasks(model)) {
        checked++;
        problems.addAll(mismatches(diagram.getFileName() + " '" + task.getId() + "'", task, templates));
      }
    }

    assertThat(diagrams).extracting(path -> path.getFileName().toString())
        .contains("react-agent.bpmn", "support-triage-agent.bpmn");
    assertThat(checked).as("agent tasks found").isGreaterThanOrEqualTo(12);
    assertThat(problems).isEmpty();
  }

  @Test
  void should_fix_the_topic_and_type_of_every_agent_service_task_template() throws IOException {
    for (JsonNode template : templates().values()) {
      if (template.at("/elementType/value").asText().equals("bpmn:ServiceTask")) {
        Map<String, JsonNode> fixed = fixedAttributes(template);
        assertThat(fixed).as(template.get("id").asText()).containsKeys("camunda:type", "camunda:topic");
        assertThat(fixed.get("camunda:type").get("value").asText()).isEqualTo("external");
        assertThat(fixed.get("camunda:topic").get("value").asText()).startsWith(ReactAgentProcess.TOPIC_PREFIX);
      }
    }
  }

  @Test
  void should_explain_every_field_to_analysts_without_application_keys() throws IOException {
    List<String> problems = new ArrayList<>();
    for (JsonNode template : templates().values()) {
      for (JsonNode field : template.get("properties")) {
        String where = template.get("id").asText() + " '" + field.path("label").asText() + "'";
        String help = field.path("description").asText();
        boolean editable = !field.get("type").asText().equals("Hidden") && field.path("editable").asBoolean(true);
        // an analyst cannot look up agentloop.agent.max-steps, and ${...} is the diagram's business, not a field's
        if (editable && (help.isEmpty() || help.contains("agentloop.") || help.contains("${"))) {
          problems.add(where + ": " + (help.isEmpty() ? "no help text" : help));
        }
      }
    }

    assertThat(problems).isEmpty();
  }

  private static List<String> mismatches(String where, Task task, Map<String, JsonNode> templates) {
    String id = task.getAttributeValueNs(BpmnModelConstants.CAMUNDA_NS, "modelerTemplate");
    String version = task.getAttributeValueNs(BpmnModelConstants.CAMUNDA_NS, "modelerTemplateVersion");
    JsonNode template = templates.get(id + "@" + version);
    if (template == null) {
      return List.of(where + ": no element template " + id + " version " + version + " (camunda:modelerTemplate)");
    }
    List<String> problems = new ArrayList<>();
    // the model API names types as in XML (serviceTask), templates as in bpmn-moddle (ServiceTask)
    String type = "bpmn:" + task.getElementType().getTypeName();
    if (!type.equalsIgnoreCase(template.at("/elementType/value").asText())) {
      problems.add(where + ": is a " + type + ", template " + id + " makes a " + template.at("/elementType/value").asText());
    }
    Map<String, String> properties = properties(task);
    List<String> offered = new ArrayList<>();
    for (JsonNode field : template.get("properties")) {
      String binding = field.at("/binding/type").asText();
      String name = field.at("/binding/name").asText();
      String actual = switch (binding) {
        case "property" -> attribute(task, name);
        case "camunda:property", "camunda:field" -> properties.get(name);
        default -> throw new IllegalStateException("this test does not know the binding " + binding + " of " + id);
      };
      if (binding.equals("camunda:property") || binding.equals("camunda:field")) {
        offered.add(name);
      }
      boolean fixed = field.get("type").asText().equals("Hidden") || !field.path("editable").asBoolean(true);
      if (fixed && !field.get("value").asText().equals(actual)) {
        problems.add(where + ": " + name + " is '" + actual + "', template " + id + " fixes it to '"
            + field.get("value").asText() + "'");
      }
    }
    properties.keySet().stream().filter(name -> !offered.contains(name))
        .forEach(name -> problems.add(where + ": extension property '" + name + "' is not offered by template " + id));
    return problems;
  }

  /** Service tasks on an AgentLoop topic and user tasks AgentLoop reviews with: the tasks the templates make. */
  private static List<Task> agentTasks(BpmnModelInstance model) {
    Stream<Task> services = model.getModelElementsByType(ServiceTask.class).stream()
        .filter(task -> task.getCamundaTopic() != null && task.getCamundaTopic().startsWith(ReactAgentProcess.TOPIC_PREFIX))
        .map(Task.class::cast);
    Stream<Task> reviews = model.getModelElementsByType(UserTask.class).stream()
        .filter(task -> properties(task).containsKey(ReactAgentProcess.REVIEW_PROPERTY))
        .map(Task.class::cast);
    return Stream.concat(services, reviews).toList();
  }

  private static Map<String, String> properties(Task task) {
    Map<String, String> properties = new LinkedHashMap<>();
    if (task.getExtensionElements() != null) {
      task.getExtensionElements().getChildElementsByType(CamundaField.class)
          .forEach(field -> properties.put(field.getCamundaName(), field.getCamundaString().getTextContent()));
      task.getExtensionElements().getElementsQuery().filterByType(CamundaProperties.class)
          .list().forEach(list -> list.getCamundaProperties()
              .forEach((CamundaProperty p) -> properties.put(p.getCamundaName(), p.getCamundaValue())));
    }
    return properties;
  }

  private static String attribute(Task task, String name) {
    return name.startsWith("camunda:")
        ? task.getAttributeValueNs(BpmnModelConstants.CAMUNDA_NS, name.substring("camunda:".length()))
        : task.getAttributeValue(name);
  }

  private static Map<String, JsonNode> fixedAttributes(JsonNode template) {
    Map<String, JsonNode> fixed = new HashMap<>();
    for (JsonNode field : template.get("properties")) {
      boolean isFixed = field.get("type").asText().equals("Hidden") || !field.path("editable").asBoolean(true);
      if (isFixed && field.at("/binding/type").asText().equals("property")) {
        fixed.put(field.at("/binding/name").asText(), field);
      }
    }
    return fixed;
  }

  /** Every template of every file, by id and version, as camunda:modelerTemplate and camunda:modelerTemplateVersion name it. */
  private static Map<String, JsonNode> templates() throws IOException {
    Map<String, JsonNode> templates = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(PROCESSES.resolve("element-templates"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        JsonNode content = JSON.readTree(file.toFile());
        for (JsonNode template : content.isArray() ? content : List.of(content)) {
          templates.put(template.get("id").asText() + "@" + template.get("version").asText(), template);
        }
      }
    }
    assertThat(templates).as("element templates").hasSizeGreaterThanOrEqualTo(5);
    return templates;
  }

  private static List<Path> diagrams() throws IOException {
    try (Stream<Path> files = Files.walk(PROCESSES)) {
      return files.filter(f -> f.toString().endsWith(".bpmn")).sorted().toList();
    }
  }
}
