package dev.agentloop.internal.mcp;

import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.RunEvents;
import dev.agentloop.internal.events.TooManyFollowersException;
import dev.agentloop.internal.resume.ResumeConflictException;
import dev.agentloop.internal.resume.ResumeService;
import io.modelcontextprotocol.server.McpAsyncServerExchange;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import java.util.Map;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.impl.identity.Authentication;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A tool call: opens the run as the caller ({@link RunOpening}), follows it with progress ({@link AgentCall}) until it
 * answers or {@code agentloop.mcp.call-timeout} passes, and answers the call ({@link McpAnswers}). No thread waits
 * meanwhile: the call is a future the run's events complete. {@code notifications/cancelled} for the call stops the
 * run, with the caller as its author ({@link McpCalls}).
 */
final class McpToolCalls {

  private static final Logger LOG = LoggerFactory.getLogger(McpToolCalls.class);

  private final RunOpening opening;
  private final RunEvents events;
  private final RunService runs;
  private final ResumeService resume;
  private final McpCalls inFlight;
  private final McpAnswers answers;
  private final IdentityService identity;
  private final McpEndpointSettings settings;

  McpToolCalls(RunOpening opening, RunEvents events, RunService runs, ResumeService resume, McpCalls inFlight,
      McpAnswers answers, IdentityService identity, McpEndpointSettings settings) {
    this.opening = opening;
    this.events = events;
    this.runs = runs;
    this.resume = resume;
    this.inFlight = inFlight;
    this.answers = answers;
    this.identity = identity;
    this.settings = settings;
  }

  Mono<CallToolResult> call(McpAsyncServerExchange exchange, CallToolRequest request) {
    McpCaller caller = McpCaller.of(exchange.transportContext());
    Object requestId = exchange.transportContext().get(McpCaller.REQUEST_ID);
    Object progressToken = request.meta() == null ? null : request.meta().get("progressToken");
    return Mono.fromCallable(() -> open(caller, request))
        .subscribeOn(Schedulers.boundedElastic())
        .flatMap(opened -> follow(opened, caller, exchange, requestId, progressToken))
        .onErrorResume(McpCallException.class, e -> Mono.just(error(e.getMessage())));
  }

  private RunOpening.Opened open(McpCaller caller, CallToolRequest request) {
    Map<String, Object> arguments = request.arguments() == null ? Map.of() : request.arguments();
    Object question = arguments.get("question");
    Object conversationId = arguments.get("conversationId");
    if (!(question instanceof String text) || text.isBlank()) {
      throw new McpCallException("question must be a non-empty string: say what agent '" + request.name()
          + "' should answer");
    }
    if (conversationId != null && !(conversationId instanceof String id && !id.isBlank() && id.length() <= 255)) {
      throw new McpCallException("conversationId must be a string of 1 to 255 characters, or left out");
    }
    return caller.run(identity, () -> opening.open(request.name(), text, (String) conversationId));
  }

  private Mono<CallToolResult> follow(RunOpening.Opened opened, McpCaller caller, McpAsyncServerExchange exchange,
      Object requestId, Object progressToken) {
    String runId = opened.runId();
    AgentCall call = new AgentCall(runId, exchange, progressToken);
    RunEvents.Following following;
    try {
      following = events.follow(runId, opened.from(), call);
    } catch (TooManyFollowersException | UnknownRunException e) {
      // the run is started: the client gets its id and fetches the answer later
      return Mono.fromCallable(() -> answers.of(AgentCall.Outcome.UNFINISHED, runs.view(runId)))
          .subscribeOn(Schedulers.boundedElastic());
    }
    inFlight.add(exchange.sessionId(), requestId, new McpCalls.Call(runId, caller.userId(),
        () -> cancel(runId, caller, following)));
    return Mono.fromFuture(call.outcome())
        .timeout(settings.callTimeout(), Mono.just(AgentCall.Outcome.UNFINISHED))
        .publishOn(Schedulers.boundedElastic())
        .map(outcome -> answers.of(outcome, runs.view(runId)))
        .doFinally(signal -> {
          following.close();
          inFlight.remove(exchange.sessionId(), requestId);
        });
  }

  /** The client cancelled the call: its run stops, with the caller as the one who stopped it. */
  private void cancel(String runId, McpCaller caller, RunEvents.Following following) {
    // the caller made the call, so they may stop its run, whatever else they may change: stopped without their
    // user, with them as its author
    Authentication user = identity.getCurrentAuthentication();
    identity.clearAuthentication();
    try {
      resume.stop(runId, "the MCP client cancelled the call", caller.userId());
    } catch (ResumeConflictException e) {
      LOG.debug("run {} had ended when its MCP call was cancelled", runId);
    } finally {
      if (user != null) {
        identity.setAuthentication(user);
      }
    }
    following.close();
  }

  private static CallToolResult error(String message) {
    return CallToolResult.builder().isError(true).addTextContent(message).build();
  }
}
