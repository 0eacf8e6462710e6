package dev.agentloop.internal.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Refuses the start when a property source sets an {@code agentloop.*} key that AgentLoop does not bind:
 * a misspelt key would otherwise be ignored without a word, and the application would run with a default
 * its team believes it changed. The message names the key, where it was set and the closest known key.
 * Runs before any bean is made, so that a typo is the first thing reported; not when AgentLoop is switched off.
 * Application files, environment variables of AgentLoop's sections ({@code AGENTLOOP_LLM_…}; not, say,
 * {@code AGENTLOOP_DB_URL}, which an application's own placeholder may read), command-line arguments and test
 * properties are checked; JVM system properties are not.
 */
final class UnknownSettings {

  /** Spring Boot's view of all other sources under their canonical names: read through those. */
  private static final String ATTACHED = "configurationProperties";
  /**
   * JVM system properties are left alone: build tools pass their own properties there (Maven's
   * {@code -Dagentloop.modeler-checks.skip} reaches the tests' JVM), which are no settings of a running AgentLoop.
   */
  private static final String SYSTEM_PROPERTIES = StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME;

  private final KnownSettings known;

  UnknownSettings(KnownSettings known) {
    this.known = known;
  }

  /** @throws UnknownSettingException naming every unknown key, with the closest known one */
  void check(ConfigurableEnvironment environment) {
    List<String> problems = new ArrayList<>();
    for (PropertySource<?> source : environment.getPropertySources()) {
      if (!(source instanceof EnumerablePropertySource<?> enumerable) || ATTACHED.equals(source.getName())
          || SYSTEM_PROPERTIES.equals(source.getName())) {
        continue;
      }
      boolean variables = source instanceof SystemEnvironmentPropertySource;
      for (String name : enumerable.getPropertyNames()) {
        if (variables ? isUnknownVariable(name) : isUnknownKey(name)) {
          problems.add(problem(name, source.getName()));
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new UnknownSettingException(String.join("; ", problems));
    }
  }

  private boolean isUnknownKey(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    return (lower.startsWith(KnownSettings.PREFIX + ".") || lower.startsWith(KnownSettings.PREFIX + "["))
        && !known.isKnown(name);
  }

  private boolean isUnknownVariable(String name) {
    return name.toUpperCase(Locale.ROOT).startsWith("AGENTLOOP_") && known.isSectionVariable(name)
        && !known.isKnownVariable(name);
  }

  private String problem(String name, String source) {
    return "'" + name + "' (set in " + source + ") is not a setting of AgentLoop"
        + known.closest(name.toLowerCase(Locale.ROOT).replace('_', '.')).map(key -> "; did you mean '" + key + "'?")
            .orElse("");
  }

  /** An {@code agentloop.*} key that AgentLoop does not know: the start stops, naming it. */
  static final class UnknownSettingException extends IllegalStateException {
    UnknownSettingException(String message) {
      super(message + " (all keys: the configuration metadata in AgentLoop's jar, or the configuration page of the"
          + " documentation)");
    }
  }
}
