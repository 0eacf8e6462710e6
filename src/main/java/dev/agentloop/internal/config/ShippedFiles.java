package dev.agentloop.internal.config;

import dev.agentloop.internal.agent.ReactAgentProcess;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.Resource;
import org.springframework.core.io.UrlResource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;

/**
 * AgentLoop's own files for its deployment, read from the jar (or classes folder) its classes come from, never from
 * elsewhere on the class path: the review forms and the default agent under its configured key. The jar keeps them
 * under {@value #FOLDER} as {@code react-agent.bpmn.xml} and {@code *.form.json}, names that no deployment pattern of
 * an application picks up (Camunda's default, {@code classpath*:**}{@code /*.bpmn}, included), so that with AgentLoop
 * switched off nothing of it is deployed. Immutable.
 */
final class ShippedFiles {

  /** The default agent's name among the files, before it is deployed under its key. */
  static final String DEFAULT_AGENT = "processes/react-agent.bpmn";
  static final String FOLDER = "META-INF/agentloop/deployment/";
  private static final String FORMS = FOLDER + "forms/*.form.json";
  /** The shipped diagram's process element up to its id's value, and the quote after it. */
  private static final Pattern SHIPPED_PROCESS = Pattern.compile(
      "(<(?:\\w+:)?process\\b[^>]*\\bid\\s*=\\s*[\"'])" + Pattern.quote(ReactAgentProcess.KEY) + "([\"'])");

  /** Name (e.g. {@code forms/review-plan.form}) to content, in the order they are deployed. */
  private final Map<String, byte[]> files;

  private ShippedFiles(Map<String, byte[]> files) {
    this.files = files;
  }

  /** Reads the forms and the default agent, its process under {@code defaultAgentKey}. */
  static ShippedFiles load(String defaultAgentKey) {
    String root = ownRoot();
    Map<String, byte[]> files = new LinkedHashMap<>();
    try {
      for (Resource form : new PathMatchingResourcePatternResolver(ShippedFiles.class.getClassLoader())
          .getResources(root + FORMS)) {
        files.put("forms/" + stripSuffix(form.getFilename(), ".json"), read(form));
      }
      files.put(DEFAULT_AGENT, keyed(read(new UrlResource(root + FOLDER + DEFAULT_AGENT + ".xml")), defaultAgentKey));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read AgentLoop's forms and default agent from " + root + FOLDER, e);
    }
    if (files.keySet().stream().noneMatch(name -> name.startsWith("forms/"))) {
      throw new IllegalStateException("AgentLoop's forms are missing from " + root + FORMS);
    }
    return new ShippedFiles(files);
  }

  Map<String, byte[]> files() {
    return files;
  }

  /** Whether an application's resource is one of these files: the same name and the same content. */
  boolean contains(Resource resource) {
    String filename = resource.getFilename();
    if (filename == null) {
      return false;
    }
    for (Map.Entry<String, byte[]> entry : files.entrySet()) {
      if (entry.getKey().endsWith("/" + filename)) {
        try {
          return Arrays.equals(entry.getValue(), read(resource));
        } catch (IOException e) {
          return false;
        }
      }
    }
    return false;
  }

  static byte[] read(Resource resource) throws IOException {
    try (InputStream in = resource.getInputStream()) {
      return in.readAllBytes();
    }
  }

  /** The default agent's diagram with its process under the configured key (its own, react-agent, unchanged). */
  private static byte[] keyed(byte[] diagram, String key) {
    if (key.equals(ReactAgentProcess.KEY)) {
      return diagram;
    }
    String xml = new String(diagram, StandardCharsets.UTF_8);
    String rekeyed = SHIPPED_PROCESS.matcher(xml).replaceFirst("$1" + Matcher.quoteReplacement(key) + "$2");
    if (rekeyed.equals(xml)) {
      throw new IllegalStateException("AgentLoop's default agent has no process '" + ReactAgentProcess.KEY + "'");
    }
    return rekeyed.getBytes(StandardCharsets.UTF_8);
  }

  private static String stripSuffix(String name, String suffix) {
    return name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name;
  }

  /** The root of the jar or classes folder this class comes from, as a URL ending in '/'. */
  private static String ownRoot() {
    String self = ShippedFiles.class.getName().replace('.', '/') + ".class";
    URL url = ShippedFiles.class.getClassLoader().getResource(self);
    if (url == null) {
      throw new IllegalStateException("cannot locate " + self);
    }
    String location = url.toString();
    return location.substring(0, location.length() - self.length());
  }
}
