package dev.agentloop.internal.security;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.impl.persistence.deploy.Deployer;
import org.camunda.bpm.engine.impl.persistence.entity.DeploymentEntity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ids of AgentLoop's forms are AgentLoop's: every agent's reviews bind the {@code latest} version of them, so a form
 * of the same id deployed by anyone else, an administrator included, would show its text and links in every review of
 * every agent. A deployment with such a form is refused whole ({@code 403}, the file and the id named); only
 * AgentLoop's own deployment of its forms ({@link #asAgentLoop}) deploys them. Thread-safe.
 */
public final class ReservedForms implements Deployer {

  private static final Logger LOG = LoggerFactory.getLogger(ReservedForms.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Set while AgentLoop deploys its own forms, on the deploying thread only. */
  private static final ThreadLocal<Boolean> AGENTLOOP_DEPLOYS = new ThreadLocal<>();

  private final Set<String> ids;

  /** @param ids the ids of AgentLoop's forms */
  public ReservedForms(Set<String> ids) {
    this.ids = Set.copyOf(ids);
  }

  /** The ids of the forms among these files ({@code .form}, Camunda Forms JSON with an {@code id}). */
  public static Set<String> idsOf(Map<String, byte[]> files) {
    Set<String> found = new LinkedHashSet<>();
    files.forEach((name, content) -> idOf(name, content).ifPresent(found::add));
    return found;
  }

  /** Runs AgentLoop's own deployment of its forms, which alone may deploy these ids. */
  public static <T> T asAgentLoop(Supplier<T> deployment) {
    AGENTLOOP_DEPLOYS.set(Boolean.TRUE);
    try {
      return deployment.get();
    } finally {
      AGENTLOOP_DEPLOYS.remove();
    }
  }

  /** AgentLoop's form ids. */
  public Set<String> ids() {
    return ids;
  }

  @Override
  public void deploy(DeploymentEntity deployment) {
    if (!deployment.isNew() || AGENTLOOP_DEPLOYS.get() != null || deployment.getResources() == null) {
      return;
    }
    List<String> taken = deployment.getResources().values().stream()
        .flatMap(resource -> idOf(resource.getName(), resource.getBytes()).filter(ids::contains)
            .map(id -> resource.getName() + " has the id '" + id + "'").stream())
        .toList();
    if (!taken.isEmpty()) {
      String message = String.join("; ", taken) + ", which is one of AgentLoop's forms ("
          + String.join(", ", new TreeSet<>(ids)) + "): every agent's review shows the latest form of that id, so"
          + " only AgentLoop deploys it. Nothing was deployed; give your form an id of its own";
      LOG.info("AGENTLOOP-106 refused deployment '{}': {}", deployment.getName(), message);
      throw new AuthorizationException(message);
    }
  }

  /** The id of a Camunda form file; empty for any other file, or a form file that is no JSON object with an id. */
  static Optional<String> idOf(String name, byte[] content) {
    if (name == null || content == null || !name.toLowerCase(Locale.ROOT).endsWith(".form")) {
      return Optional.empty();
    }
    try {
      JsonNode id = JSON.readTree(content).path("id");
      return id.isTextual() ? Optional.of(id.asText()) : Optional.empty();
    } catch (IOException notJson) {
      return Optional.empty();
    }
  }
}
