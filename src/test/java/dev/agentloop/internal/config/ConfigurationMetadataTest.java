package dev.agentloop.internal.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.StandardEnvironment;

/**
 * The configuration metadata in AgentLoop's jar tells the truth: every key has a description, and the default
 * it shows is the value a host without any {@code agentloop.*} setting gets bound, key by key.
 */
class ConfigurationMetadataTest {

  @Test
  void should_show_the_default_that_an_empty_environment_binds_and_a_description_for_every_key() throws Exception {
    Map<String, Object> bound = new LinkedHashMap<>();
    flatten("agentloop", bindEmptyEnvironment(), bound);
    Map<String, JsonNode> metadata = metadata();

    List<String> wrong = new ArrayList<>();
    List<String> undescribed = new ArrayList<>();
    metadata.forEach((key, property) -> {
      if (!property.hasNonNull("description") || property.get("description").asText().isBlank()) {
        undescribed.add(key);
      }
      if (bound.containsKey(key) && !sameDefault(property.get("defaultValue"), bound.get(key))) {
        wrong.add(key + ": metadata " + property.get("defaultValue") + ", bound " + bound.get(key));
      }
    });

    assertThat(metadata.keySet()).as("every bound key is in the metadata").containsAll(bound.keySet());
    assertThat(wrong).as("keys whose metadata shows another default than the one bound").isEmpty();
    assertThat(undescribed).as("keys without a description").isEmpty();
  }

  @Test
  void should_describe_every_key_in_plain_words_and_show_a_lists_default_as_a_list() throws Exception {
    Map<String, JsonNode> metadata = metadata();

    // an IDE shows the description as it is: no Javadoc tag, no HTML, no Java field name for a key
    assertThat(metadata.values()).allSatisfy(property -> assertThat(property.path("description").asText())
        .as(property.get("name").asText()).doesNotContain("{@").doesNotContainPattern("<[A-Za-z/]")
        .doesNotContainPattern("\\b(toolBreaker|maxTokens|contextWindowSteps|failureExecutions)\\b"));
    assertThat(metadata.values()).filteredOn(property -> property.path("type").asText().startsWith("java.util.List")
            && property.has("defaultValue"))
        .isNotEmpty()
        .allSatisfy(property -> assertThat(property.get("defaultValue").isArray()).as(property.get("name").asText())
            .isTrue());
  }

  /** What a host that sets nothing of AgentLoop's gets: its defaults, bound as at a start. */
  private static AgentLoopProperties bindEmptyEnvironment() {
    StandardEnvironment environment = new StandardEnvironment();
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
    environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
    new AgentLoopDefaults().postProcessEnvironment(environment, new SpringApplication());
    return Binder.get(environment).bind("agentloop", AgentLoopProperties.class).get();
  }

  /** The metadata the configuration processor wrote into AgentLoop's own jar (or classes folder). */
  private static Map<String, JsonNode> metadata() throws Exception {
    String library = AgentLoopProperties.class.getProtectionDomain().getCodeSource().getLocation().toString();
    Map<String, JsonNode> properties = new LinkedHashMap<>();
    for (URL url : Collections.list(ConfigurationMetadataTest.class.getClassLoader()
        .getResources("META-INF/spring-configuration-metadata.json"))) {
      if (url.toString().contains(library)) {
        try (InputStream in = url.openStream()) {
          new ObjectMapper().readTree(in).get("properties")
              .forEach(property -> properties.put(property.get("name").asText(), property));
        }
      }
    }
    assertThat(properties).as("metadata in " + library).isNotEmpty();
    return properties;
  }

  /** Leaf values by key; maps are left out (their keys are the application's names, their default is empty). */
  private static void flatten(String prefix, Object value, Map<String, Object> leaves) {
    if (value instanceof Record record) {
      for (RecordComponent component : record.getClass().getRecordComponents()) {
        try {
          flatten(prefix + "." + kebab(component.getName()), component.getAccessor().invoke(record), leaves);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
      }
    } else if (!(value instanceof Map<?, ?>)) {
      leaves.put(prefix, value);
    }
  }

  private static boolean sameDefault(JsonNode shown, Object bound) {
    boolean none = bound == null || "".equals(bound) || (bound instanceof List<?> list && list.isEmpty());
    if (shown == null || shown.isNull()) {
      return none;
    }
    if (bound instanceof Duration duration) {
      return shown.isTextual() && DurationStyle.detectAndParse(shown.asText()).equals(duration);
    }
    if (bound instanceof Number number) {
      return shown.isNumber() && shown.decimalValue().compareTo(new BigDecimal(number.toString())) == 0;
    }
    if (bound instanceof Enum<?> constant) {
      return shown.asText().replace('-', '_').equalsIgnoreCase(constant.name());
    }
    if (bound instanceof List<?> list) {
      List<String> values = new ArrayList<>();
      shown.forEach(element -> values.add(element.asText()));
      return values.equals(list.stream().map(String::valueOf).toList());
    }
    if (bound instanceof Boolean flag) {
      return shown.isBoolean() && shown.asBoolean() == flag;
    }
    return shown.asText().equals(String.valueOf(bound));
  }

  private static String kebab(String name) {
    return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }
}
