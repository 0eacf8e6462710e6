package dev.agentloop.internal.config;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every key under {@code agentloop.*} that AgentLoop binds, read from the records {@link AgentLoopProperties}
 * is made of, so that it can never drift from what is bound: a record component is a key (kebab-case), a
 * map's keys are names the application chooses ({@code *}), a list's are indexes, and below a map of strings
 * or a list anything goes. Immutable, thread-safe.
 */
final class KnownSettings {

  static final String PREFIX = "agentloop";
  private static final String ANY_NAME = "*";
  private static final String ANYTHING = "**";
  /** A segment of a key: a name in brackets, or what lies between dots. */
  private static final Pattern SEGMENT = Pattern.compile("\\[([^\\]]*)\\]|([^.\\[\\]]+)");

  private final List<List<String>> patterns;

  private KnownSettings(List<List<String>> patterns) {
    this.patterns = List.copyOf(patterns);
  }

  static KnownSettings of(Class<? extends Record> root) {
    List<List<String>> patterns = new ArrayList<>();
    collect(List.of(PREFIX), root, patterns);
    return new KnownSettings(patterns);
  }

  /**
   * Whether a key AgentLoop binds has this name.
   *
   * @param key as a property source names it: {@code agentloop.agent.max-steps}, {@code agentloop.agent.maxSteps},
   *     {@code agentloop.tools.http-get.allowed-hosts[0]}
   */
  boolean isKnown(String key) {
    List<String> segments = segments(key);
    return patterns.stream().anyMatch(pattern -> matches(pattern, segments));
  }

  /**
   * Whether an environment variable is meant for one of AgentLoop's sections ({@code AGENTLOOP_LLM_…},
   * {@code AGENTLOOP_WORKER_…}): only those are checked. Others that merely start with {@code AGENTLOOP_}
   * ({@code AGENTLOOP_DB_URL}, read by a placeholder in an application's own file) are no setting of AgentLoop's.
   */
  boolean isSectionVariable(String variable) {
    String rest = variable.toLowerCase(Locale.ROOT).substring(PREFIX.length() + 1);
    String section = rest.contains("_") ? rest.substring(0, rest.indexOf('_')) : rest;
    return patterns.stream().anyMatch(pattern -> pattern.get(1).replace("-", "").equals(section));
  }

  /** Whether an environment variable ({@code AGENTLOOP_AGENT_MAX_STEPS}) binds to a key AgentLoop knows. */
  boolean isKnownVariable(String variable) {
    String name = variable.toLowerCase(Locale.ROOT).replace("_", "");
    return patterns.stream().anyMatch(pattern -> {
      int open = pattern.indexOf(ANY_NAME) >= 0 ? pattern.indexOf(ANY_NAME) : pattern.indexOf(ANYTHING);
      List<String> fixed = open < 0 ? pattern : pattern.subList(0, open);
      String prefix = String.join("", fixed).replace("-", "");
      return open < 0 ? name.equals(prefix) : name.startsWith(prefix) && name.length() > prefix.length();
    });
  }

  /** The known key closest to an unknown one (Levenshtein distance), for the message that refuses it. */
  Optional<String> closest(String key) {
    String wanted = key.toLowerCase(Locale.ROOT);
    return names().stream().min(Comparator.comparingInt(name -> distance(wanted, name)));
  }

  /** The known keys as they are written, a map's keys as {@code <name>}. */
  List<String> names() {
    return patterns.stream().filter(pattern -> !pattern.contains(ANYTHING))
        .map(pattern -> String.join(".", pattern).replace("." + ANY_NAME, ".<name>"))
        .distinct().toList();
  }

  private static void collect(List<String> prefix, Type type, List<List<String>> patterns) {
    Class<?> raw = raw(type);
    if (raw.isRecord()) {
      for (RecordComponent component : raw.getRecordComponents()) {
        collect(append(prefix, kebab(component.getName())), component.getGenericType(), patterns);
      }
    } else if (Map.class.isAssignableFrom(raw)) {
      patterns.add(prefix); // an empty map: {} in YAML
      Type value = argument(type, 1);
      if (value != null && raw(value).isRecord()) {
        collect(append(prefix, ANY_NAME), value, patterns);
      } else {
        patterns.add(append(prefix, ANY_NAME));
        patterns.add(append(append(prefix, ANY_NAME), ANYTHING));
      }
    } else if (Collection.class.isAssignableFrom(raw) || raw.isArray()) {
      patterns.add(prefix);
      patterns.add(append(prefix, ANYTHING));
    } else {
      patterns.add(prefix);
    }
  }

  private static boolean matches(List<String> pattern, List<String> key) {
    for (int i = 0; i < pattern.size(); i++) {
      String expected = pattern.get(i);
      if (expected.equals(ANYTHING)) {
        return key.size() > i;
      }
      if (i >= key.size() || !(expected.equals(ANY_NAME) || expected.replace("-", "").equals(key.get(i)))) {
        return false;
      }
    }
    return key.size() == pattern.size();
  }

  /**
   * {@code agentloop.tools.http-get.allowedHosts[0]} → agentloop, tools, httpget, allowedhosts, 0 (relaxed binding);
   * a name in brackets is one segment, dots and all ({@code agentloop.llm.prices[gpt-4.1].input}).
   */
  private static List<String> segments(String key) {
    List<String> segments = new ArrayList<>();
    Matcher part = SEGMENT.matcher(key);
    while (part.find()) {
      String segment = part.group(1) != null ? part.group(1) : part.group(2);
      if (!segment.isEmpty()) {
        segments.add(segment.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT));
      }
    }
    return segments;
  }

  private static String kebab(String name) {
    return name.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
  }

  private static Class<?> raw(Type type) {
    if (type instanceof Class<?> plain) {
      return plain;
    }
    if (type instanceof ParameterizedType parameterized) {
      return (Class<?>) parameterized.getRawType();
    }
    return Object.class;
  }

  private static Type argument(Type type, int index) {
    if (type instanceof ParameterizedType parameterized && parameterized.getActualTypeArguments().length > index) {
      return parameterized.getActualTypeArguments()[index];
    }
    return null;
  }

  private static List<String> append(List<String> prefix, String segment) {
    List<String> longer = new ArrayList<>(prefix);
    longer.add(segment);
    return longer;
  }

  static int distance(String a, String b) {
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
