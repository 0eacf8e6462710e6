package dev.agentloop.internal.security;

import dev.agentloop.api.AgentLoopGroups;

import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.trace.StoredText;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.camunda.bpm.engine.impl.interceptor.CommandExecutor;
import org.camunda.bpm.engine.impl.persistence.entity.ExternalTaskEntity;
import org.camunda.bpm.engine.rest.security.auth.ProcessEngineAuthenticationFilter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;

/**
 * Camunda's own HTTP Basic authentication of the engine REST API, followed by AgentLoop's fence for
 * members of {@code agent-workers} ({@link WorkerRestPolicy}): once the engine knows who asks, a worker's
 * call that is not part of serving a tool is answered 403 before it reaches the engine. Being one
 * filter, the fence cannot run before the authentication, whatever the filter order of the host.
 *
 * <p>A user in {@code agent-workers} is fenced whatever other groups it is in: worker credentials sit
 * on the machines that run tools, next to systems AgentLoop does not control, so they must never be
 * able to steer a run, even when someone added the user to {@code agent-operators} by mistake. A
 * person who operates and runs a worker uses two users. Thread-safe.
 */
class EngineRestGate extends ProcessEngineAuthenticationFilter {

  private static final Logger LOG = LoggerFactory.getLogger(EngineRestGate.class);
  /**
   * The fence reads a worker's body whole to check it, so it bounds it: a worker's largest request is
   * the completion of a remote tool call, whose result is cut at {@code max-step-chars} when it is
   * stored, far below this.
   */
  static final int MAX_WORKER_BODY_BYTES = 4 * 1024 * 1024;

  private final ProcessEngine engine;
  private final String restRoot;
  private final WorkerRestPolicy workerCalls;

  EngineRestGate(ProcessEngine engine, String restRoot, AgentDefinitions definitions) {
    this.engine = engine;
    this.restRoot = restRoot;
    CommandExecutor commands = ((ProcessEngineConfigurationImpl) engine.getProcessEngineConfiguration())
        .getCommandExecutorTxRequired();
    // the worker may not read the task or the diagram; the fence must, to decide
    this.workerCalls = new WorkerRestPolicy(new WorkerRestPolicy.Engine() {
      @Override
      public Optional<WorkerRestPolicy.ExternalTaskFacts> externalTask(String id) {
        return commands.execute(context -> context.runWithoutAuthorization(() -> {
          ExternalTaskEntity task = context.getExternalTaskManager().findExternalTaskById(id);
          return Optional.ofNullable(task)
              .map(found -> new WorkerRestPolicy.ExternalTaskFacts(found.getTopicName(), found.getProcessDefinitionId()));
        }));
      }

      @Override
      public boolean catches(String processDefinitionId, String errorCode) {
        return commands.execute(context -> context.runWithoutAuthorization(
            () -> definitions.catches(processDefinitionId, errorCode)));
      }
    });
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    super.doFilter(request, response, (authenticated, answer) ->
        fence((HttpServletRequest) authenticated, (HttpServletResponse) answer, chain));
  }

  private void fence(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
      throws IOException, ServletException {
    Authentication user = engine.getIdentityService().getCurrentAuthentication();
    if (user == null || user.getGroupIds() == null || !user.getGroupIds().contains(AgentLoopGroups.WORKERS)) {
      chain.doFilter(request, response);
      return;
    }
    Optional<CachedBodyRequest> read = CachedBodyRequest.of(request, MAX_WORKER_BODY_BYTES);
    if (read.isEmpty()) {
      LOG.warn("AGENTLOOP-022 refused {} {} of worker user {}: body over {} bytes. If that worker is yours, have"
          + " its tool return less", request.getMethod(), request.getRequestURI(), user.getUserId(),
          MAX_WORKER_BODY_BYTES);
      ProblemResponses.write(response, HttpStatus.PAYLOAD_TOO_LARGE, "a request of a member of "
          + AgentLoopGroups.WORKERS + " may have at most " + MAX_WORKER_BODY_BYTES + " bytes");
      return;
    }
    CachedBodyRequest cached = read.get();
    WorkerRestPolicy.Decision decision = request.getHeader("X-HTTP-Method-Override") != null
        ? new WorkerRestPolicy.Decision("a member of " + AgentLoopGroups.WORKERS + " may not override the HTTP method")
        : workerCalls.check(request.getMethod(), pathBelowRoot(request), cached.body());
    if (decision.malformed()) {
      LOG.info("400 for {} {} of worker user {}: {}", request.getMethod(), request.getRequestURI(), user.getUserId(),
          decision.refusal());
      ProblemResponses.write(response, HttpStatus.BAD_REQUEST, decision.refusal());
      return;
    }
    if (!decision.allowed()) {
      LOG.warn("AGENTLOOP-023 refused {} {} of worker user {}: {}. If that worker is yours, fix its call; if not,"
          + " change that user's password", request.getMethod(), request.getRequestURI(), user.getUserId(),
          decision.refusal());
      ProblemResponses.write(response, HttpStatus.FORBIDDEN, decision.refusal());
      return;
    }
    chain.doFilter(storable(cached), response);
  }

  /**
   * A worker's body with the text of a tool result made storable as {@link StoredText} says: a NUL the
   * tool returned would otherwise fail the completion on PostgreSQL, again at every retry. JSON can hold
   * a NUL only escaped, and the escape of U+FFFD that replaces it has the same length.
   */
  static CachedBodyRequest storable(CachedBodyRequest request) {
    String body = new String(request.body(), StandardCharsets.UTF_8);
    return body.contains("\\u0000")
        ? request.withBody(StoredText.ofJson(body).getBytes(StandardCharsets.UTF_8)) : request;
  }

  /**
   * The path as sent, below {@code /engine-rest} and below {@code /engine/<this engine>}: not decoded, so
   * that a path the fence does not know exactly (matrix parameters, escapes) is refused, not guessed at.
   */
  private String pathBelowRoot(HttpServletRequest request) {
    String path = request.getRequestURI().substring(request.getContextPath().length());
    if (path.startsWith(restRoot)) {
      path = path.substring(restRoot.length());
    }
    String named = "/engine/" + engine.getName();
    return path.startsWith(named + "/") ? path.substring(named.length()) : path;
  }
}
