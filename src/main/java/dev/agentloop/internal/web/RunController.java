package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.agent.definition.AnswerSchema;
import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.agent.run.ConversationInUseException;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.api.RunView;
import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.review.ReviewTaskView;
import dev.agentloop.internal.review.ReviewTasks;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.RunQuery;
import dev.agentloop.internal.trace.retention.TraceDeletion;
import dev.agentloop.internal.trace.retention.TraceRetention;
import jakarta.validation.Valid;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** {@code /api/runs}: start a run, see how it stands, read its trace, act on its open tasks, delete its trace. */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/runs", produces = "application/json")
class RunController {

  private final RunService runs;
  private final ReviewTasks tasks;
  private final RunAccess access;
  private final TraceRetention retention;
  private final TraceReads traces;
  private final String basePath;
  /** The agent of a run started, or of runs listed, without naming one: AgentLoop's default agent. */
  private final String defaultAgent;

  RunController(RunService runs, ReviewTasks tasks, RunAccess access, TraceRetention retention, RunInsights insights,
      ModelPrices prices, String basePath, String defaultAgent) {
    this.runs = runs;
    this.tasks = tasks;
    this.access = access;
    this.retention = retention;
    this.traces = new TraceReads(runs, insights, prices);
    this.basePath = basePath;
    this.defaultAgent = defaultAgent;
  }

  @PostMapping(consumes = "application/json")
  ResponseEntity<RunView> start(@Valid @RequestBody StartRunRequest request) {
    String agent = request.agent() == null || request.agent().isBlank() ? defaultAgent : request.agent();
    String runId;
    try {
      runId = runs.start(agent, request.question(), request.conversationId(), answerSchema(request));
    } catch (ConversationInUseException e) {
      // a run the caller may not read is not named to them, as everywhere
      throw access.mayRead(e.runId()) ? e : e.withoutRun();
    }
    return ResponseEntity.created(URI.create(basePath + "/runs/" + runId)).body(runs.view(runId));
  }

  /** The request's answer schema, checked before anything starts; {@code null} when it has none. */
  private static JsonNode answerSchema(StartRunRequest request) {
    JsonNode schema = request.answerSchema();
    if (schema == null || schema.isNull()) {
      return null;
    }
    try {
      return AnswerSchema.of(schema).json();
    } catch (IllegalArgumentException e) {
      String shown = schema.toString().length() > 120 ? schema.toString().substring(0, 120) + "…" : schema.toString();
      throw new InvalidParameterException("answerSchema", shown, "a JSON Schema of an object with properties ("
          + e.getMessage() + ")");
    }
  }

  /**
   * The runs of an agent that the caller may read, newest first, one page of them: by status, start
   * date, who wrote steps in them and a piece of their question. {@code X-Total-Count} tells how many
   * of the runs the caller may read match, on all pages; runs they may not read are never counted. {@code finished=true}
   * and {@code limit} are the older spellings of a finished status and {@code size}. {@code conversationId} keeps
   * the runs started under that id, of any agent unless {@code agent} is given too.
   */
  @GetMapping
  ResponseEntity<List<RunView>> list(@RequestParam(required = false) String agent,
      @RequestParam(defaultValue = "false") boolean finished, @RequestParam(required = false) Integer limit,
      @RequestParam(required = false) String status, @RequestParam(required = false) String from,
      @RequestParam(required = false) String to, @RequestParam(required = false) String editedBy,
      @RequestParam(required = false) String q, @RequestParam(defaultValue = "0") int page,
      @RequestParam(required = false) Integer size, @RequestParam(required = false) String conversationId) {
    RunSearchParameters.conversationId(conversationId);
    if (limit != null && (limit < 1 || limit > RunSearchParameters.MAX_SIZE)) {
      throw new InvalidParameterException("limit", String.valueOf(limit), "between 1 and " + RunSearchParameters.MAX_SIZE);
    }
    if (agent == null && conversationId == null) {
      agent = defaultAgent;
    }
    if (agent != null) {
      RunSearchParameters.agent(agent);
      if (!runs.deployedAgents().contains(agent) && !runs.hasRuns(agent)) {
        throw new UnknownAgentException(agent, runs.deployedAgents());
      }
    }
    int pageSize = size != null ? size : limit != null ? limit : 50;
    RunQuery query = RunSearchParameters.query(agent, finished, status, from, to, editedBy, q, page, pageSize);
    if (conversationId != null) {
      // few runs hold one id: each is checked as a run is read
      query = query.readableOnly(runs.runsOfConversation(conversationId).stream().filter(access::mayRead)
          .collect(Collectors.toUnmodifiableSet()));
    } else {
      query = access.readableRuns(agent).map(query::readableOnly).orElse(query);
    }
    RunService.SearchResult found = runs.search(query, RunSearchParameters.engineStatus(status));
    return ResponseEntity.ok().header("X-Total-Count", String.valueOf(found.total())).body(found.runs());
  }

  @GetMapping("/{id}")
  RunView get(@PathVariable String id) {
    return readable(id);
  }

  /** The trace, each step with what its call cost and whether its prompt can be read. */
  @GetMapping("/{id}/trace")
  TraceView trace(@PathVariable String id, @RequestParam(defaultValue = "active") String branches) {
    if (!branches.equals("active") && !branches.equals("all")) {
      throw new InvalidParameterException("branches", branches, "'active' (the path the model sees) or 'all'");
    }
    readable(id);
    return traces.trace(id, branches);
  }

  /** The messages and tools the model received in the call that wrote step {@code no}. */
  @GetMapping("/{id}/steps/{no}/prompt")
  PromptView prompt(@PathVariable String id, @PathVariable int no) {
    readable(id);
    return traces.prompt(id, no);
  }

  /** The run's open user tasks (plan review, a question for a person, ...) with their form data. */
  @GetMapping("/{id}/tasks")
  List<ReviewTaskView> tasks(@PathVariable String id) {
    readable(id);
    return tasks.open(id);
  }

  /** Completes a task with the fields its form would submit, e.g. {@code {"decision": "accept"}}. */
  @PostMapping(path = "/{id}/tasks/{taskId}/complete", consumes = "application/json")
  ResponseEntity<RunView> complete(@PathVariable String id, @PathVariable String taskId,
      @RequestBody Map<String, JsonNode> fields) {
    readable(id);
    tasks.complete(id, taskId, fields);
    return ResponseEntity.ok(runs.view(id));
  }

  /**
   * Deletes a finished run's trace at once (its steps, question and the reasons people gave), for
   * operators; the run keeps a tombstone saying who deleted it, when and why.
   */
  @DeleteMapping("/{id}/trace")
  TraceDeletion deleteTrace(@PathVariable String id, @RequestParam(required = false) String reason) {
    readable(id);
    access.requireDeleteTrace();
    if (reason == null || reason.isBlank()) {
      throw new InvalidParameterException("reason", String.valueOf(reason), "why the trace is deleted, for the audit");
    }
    return retention.deleteTrace(id, access.currentUser(), reason);
  }

  /**
   * The run as the caller may see it. A run the caller may not read is as unknown as one that does not
   * exist (the same 404, the same detail, read the same way first), so that no answer tells that it exists.
   */
  private RunView readable(String id) {
    if (!access.mayRead(id)) {
      throw new UnknownRunException(id);
    }
    return runs.view(id);
  }
}
