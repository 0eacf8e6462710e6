package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What springdoc cannot read from AgentLoop's controllers, added to what it generated: a summary, an
 * operation id and a description per operation, the status a success answers, the problem documents each
 * operation may answer, request examples, parameter descriptions, the security schemes and the server.
 * The library has no OpenAPI dependency (a host must not get one), so this lives beside the test that
 * generates the document. An operation that is not described here fails {@link #describe}: a new endpoint
 * cannot reach the checked-in document without its documentation.
 */
final class ApiDocumentation {

  /** The version of the API's contract, raised by hand when the contract changes. */
  static final String VERSION = "0.1";
  /** Where the API is served unless {@code agentloop.api.base-path} says otherwise. */
  static final String DEFAULT_BASE_PATH = "/api";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One operation's documentation.
   *
   * @param success the status of a success, with what it answers
   * @param problems the statuses of the problem documents it may answer besides 401 and 403, which any may
   * @param example a request body as a client sends it, or {@code null} when the operation takes none
   */
  record Operation(String operationId, String tag, String summary, String description, int success,
      String successDescription, List<Integer> problems, String example) {}

  private static final Map<String, Operation> OPERATIONS = new LinkedHashMap<>();

  static {
    add("POST /runs", new Operation("startRun", "runs", "Start a run",
        "Starts a run of an agent (default: AgentLoop's default agent, `react-agent` unless"
            + " `agentloop.deployment.default-agent-key` names another) on a question and answers the run as it stands"
            + " right after the start; `Location` names it. The caller needs the right to start the agent.",
        201, "The run, started", List.of(400, 413),
        "{\"question\": \"What is 17 * 23?\", \"agent\": \"react-agent\"}"));
    add("GET /runs", new Operation("listRuns", "runs", "Search runs",
        "The runs of an agent that the caller may read, newest first, one page of them: by status, start date,"
            + " who wrote steps in them and a piece of their question. `X-Total-Count` tells how many runs the"
            + " caller may read match, on all pages. `finished=true` and `limit` are older spellings of a finished"
            + " status and of `size`.",
        200, "One page of runs, newest first", List.of(400), null));
    add("GET /runs/{id}", new Operation("getRun", "runs", "Read a run",
        "How the run stands: status (from the step store and the engine), what it waits for, the newest answer,"
            + " its turns, budgets and costs, and `version`, the `baseVersion` of an edit made on what was read.",
        200, "The run", List.of(404), null));
    add("GET /runs/{id}/events", new Operation("followRun", "runs", "Follow a run as server-sent events",
        "The run as a stream of server-sent events (`text/event-stream`), for whoever may read it: `step` (a step"
            + " written, the fields of a trace step), `waiting` (the people it waits for: `waitingFor` and the open"
            + " `tasks`, each with `taskId`, `key`, `name`), `resumed`, `failed` (an incident), `text` (the model's"
            + " text as its provider streams it, before the step it becomes; no id), `text-dropped` (the call whose"
            + " text was sent failed midway: throw that text away; no id), `answer`, and `ended` (status,"
            + " reason, endedBy, answer), after which the stream closes. Each event but the text ones has an id: send"
            + " the"
            + " last one received back in `Last-Event-ID` to resume after it, on any node. Without it the stream"
            + " starts with the run's first step. A silent stream sends a comment now and then; a stream lasts"
            + " `agentloop.events.max-duration` at most, and the client resumes. See docs/interop.md.",
        200, "The run's events", List.of(400, 404, 503), null));
    add("GET /runs/{id}/trace", new Operation("getTrace", "runs", "Read a run's trace",
        "The run's steps, each with what its call cost and whether its prompt can be read, and the decisions"
            + " people took. `branches=active` is the path the model sees; `all` adds superseded branches.",
        200, "The trace", List.of(400, 404), null));
    add("DELETE /runs/{id}/trace", new Operation("deleteTrace", "runs", "Delete a finished run's trace",
        "Deletes a finished run's steps, question and the reasons people gave, for operators (the right to delete"
            + " traces); the run keeps a tombstone saying who deleted it, when and why. A run still running is a 409.",
        200, "The tombstone", List.of(400, 404, 409), null));
    add("GET /runs/{id}/steps/{no}/prompt", new Operation("getPrompt", "runs", "Read the prompt of a step",
        "The messages and tools the model received in the call that wrote step `no`: only the first step a model"
            + " call wrote (a plan, a thought or a final answer) has one.",
        200, "The prompt", List.of(404), null));
    add("GET /runs/{id}/tasks", new Operation("listTasks", "runs", "List a run's open tasks",
        "The run's open user tasks (plan review, a question for a person, an action to approve, an answer to review,"
            + " agent stuck) with their form data.",
        200, "The open tasks", List.of(404), null));
    add("POST /runs/{id}/tasks/{taskId}/complete", new Operation("completeTask", "runs", "Complete a task",
        "Completes an open task with the fields its Tasklist form would submit; the fields depend on the task"
            + " (`decision` and what the decision needs). In an answer review, `regenerate` may redo an earlier turn"
            + " of a conversation: `regenerateTurn` (numbered as `turns` of `GET /runs/{id}`; left out, or the turn"
            + " under review: this answer; the task's `regenerateTurnOptions` lists them) and `replayLaterTurns`"
            + " (whether the later questions, the reviewed one's among them, are asked again on the new branch;"
            + " default false; only with an earlier turn of a conversation).",
        200, "The run after the decision", List.of(400, 404, 409, 413),
        "{\"decision\": \"accept\"}"));
    add("POST /runs/{id}/steps/{stepId}/edit", new Operation("editStep", "resume", "Edit a step and resume",
        "Supersedes step `stepId` with the edited content and continues the run from it; `baseVersion` is the"
            + " run's `version` as read before editing (another change in between is a 409, nothing applied). The"
            + " answer lists the side effects that happened on the superseded branch.",
        200, "What the edit did", List.of(400, 404, 409, 413),
        "{\"content\": {\"text\": \"Use the calculator for 17 * 23.\"}, \"reason\": \"the plan skipped the tool\","
            + " \"baseVersion\": 7}"));
    add("POST /runs/{id}/regenerate", new Operation("regenerateAnswer", "resume", "Regenerate an answer",
        "Asks the model for a new answer: without a body or `turn`, the newest answer; with `turn`, that turn's"
            + " answer of a conversation, its later turns' questions asked again when `replayLaterTurns` is true.",
        200, "What the regenerate did", List.of(400, 404, 409, 413),
        "{\"turn\": 1, \"replayLaterTurns\": false, \"reason\": \"the answer missed the discount\"}"));
    add("POST /runs/{id}/stop", new Operation("stopRun", "resume", "Stop a run",
        "Ends a running or waiting run with the stated reason (status STOPPED).",
        200, "The run, stopped", List.of(400, 404, 409, 413), "{\"reason\": \"the customer withdrew the request\"}"));
    add("POST /runs/{id}/restart", new Operation("restartRun", "resume", "Restart a finished run from a step",
        "Starts a new run whose trace is a copy of this one's path up to `fromStep`, and continues it from there;"
            + " `Location` names the new run.",
        201, "The new run", List.of(400, 404, 409, 413),
        "{\"fromStep\": 3, \"reason\": \"retry with the corrected plan\"}"));
    add("GET /runs/{id}/actions", new Operation("getActions", "resume", "What the caller may do with a run now",
        "Which of edit, regenerate, stop and restart the caller may do with the run in its present state, and why"
            + " not where not.",
        200, "The actions", List.of(404), null));
    add("POST /runs/{id}/messages", new Operation("askFollowUp", "conversations", "Ask a conversation's next question",
        "Accepted: the run plans and answers the question as its next turn (a run of an agent with conversations,"
            + " waiting for its next question).",
        202, "The question is taken; the run as it stands", List.of(400, 404, 409, 413),
        "{\"question\": \"And 17 * 24?\"}"));
    add("POST /runs/{id}/close", new Operation("closeConversation", "conversations", "Close a conversation",
        "Closes a conversation waiting for its next question; the run ends ANSWERED. The body (a reason) is optional.",
        200, "The run, ended", List.of(400, 404, 409, 413), "{\"reason\": \"the customer has no more questions\"}"));
    add("GET /agents/{key}/owner", new Operation("getAgentOwner", "agents", "Who owns an agent's key",
        "Who may deploy new versions of the agent: `AGENTLOOP` (its default agent, the application's alone),"
            + " `APPLICATION` (deployed by the application or an administrator), `GROUP` (the analysts of `group`) or"
            + " `NOBODY` (not deployed: the first analyst to deploy it makes it their group's). Any authenticated user"
            + " may read it.",
        200, "The key's owner", List.of(), null));
    add("PUT /agents/{key}/owner", new Operation("handAgentToGroup", "agents", "Hand an agent's key to a group",
        "The group's analysts deploy new versions of the agent from now on; no other group's may. For engine"
            + " administrators. Not for AgentLoop's default agent.",
        200, "The key's owner, now the group", List.of(400, 413), "{\"group\": \"support\"}"));
    add("DELETE /agents/{key}/owner", new Operation("handAgentToApplication", "agents",
        "Hand an agent's key back to the application",
        "No analyst deploys new versions of the agent any more. For engine administrators.",
        200, "The key's owner, now the application (or nobody, for a key that is not deployed)", List.of(), null));
    add("GET /agents/{key}/versions", new Operation("listAgentVersions", "agents", "List an agent's versions",
        "The agent's deployed versions, oldest first, each with its open runs and all its runs, and which one new runs"
            + " start on. For those who may move the agent's runs (agent-operators, the engine's admins).",
        200, "The versions", List.of(400), null));
    add("POST /agents/{key}/migrations", new Operation("migrateRuns", "agents", "Move runs to another version",
        "Moves waiting runs of the agent (`runs` by id, or every open run of `fromVersion`) to version `toVersion`:"
            + " per run `migrated`, `refused` with the reason in words, or `pending` (busy in a model or tool call,"
            + " moves when it next waits, with `whenBusy: moveWhenWaiting`). A run moves only where it waits in a"
            + " review, an ask-human question, an approval, agent stuck or for a follow-up. `dryRun` says what would"
            + " happen and changes nothing. More runs than `agentloop.migration.batch-threshold` move in a Camunda"
            + " batch: then the answer is 202 with the migration to follow (`Location`).",
        200, "The migration, each run's outcome", List.of(400),
        "{\"toVersion\": 2, \"fromVersion\": 1, \"dryRun\": false, \"reason\": \"the fixed prompt\","
            + " \"whenBusy\": \"refuse\"}"));
    add("GET /agents/{key}/migrations/{migrationId}", new Operation("getMigration", "agents", "Follow a migration",
        "How a migration stands: what became of each of its runs so far, and whether every run has moved or been"
            + " refused (`done`).",
        200, "The migration", List.of(400, 404), null));
    add("POST /agents/{key}/evaluations", new Operation("startEvaluation", "evaluations", "Evaluate a candidate",
        "Runs a candidate of the agent (its diagram, or a version already deployed) on recorded runs and/or a data"
            + " set, under a key of its own: tool calls get the recorded results, side effects never run. Accepted:"
            + " the cases run on the evaluations' own lane; `Location` names the evaluation. For operators and for"
            + " analysts who may read the agent's runs.",
        202, "The evaluation, its cases queued", List.of(400, 413),
        "{\"version\": 3, \"recent\": 20, \"judge\": {\"rubric\": \"The same facts as the reference.\"},"
            + " \"reason\": \"the prompt before the last change\"}"));
    add("GET /agents/{key}/evaluations", new Operation("listEvaluations", "evaluations", "List an agent's evaluations",
        "The agent's evaluations, newest first, with their summaries (the cases are read one evaluation at a time).",
        200, "The evaluations", List.of(400), null));
    add("GET /evaluations/{evaluationId}", new Operation("getEvaluation", "evaluations", "Read an evaluation",
        "Where it stands, and each case side by side: the recorded run's and the candidate's outcome, answer,"
            + " fields, steps, tokens and cost, the checks and the verdict; the summary counts them.",
        200, "The evaluation", List.of(404), null));
    add("POST /evaluations/{evaluationId}/promote", new Operation("promoteEvaluation", "evaluations",
        "Promote a candidate", "Deploys the candidate as the agent's version new runs start on, as the caller (who"
            + " must be allowed to deploy the agent), once, and only when no case failed. The reason is optional.",
        200, "The evaluation, with its promotion", List.of(400, 404, 409, 413), "{\"reason\": \"same answers, kinder\"}"));
    add("GET /breakers", new Operation("listBreakers", "breakers", "List the circuit breakers",
        "The circuit breakers of this node, one per tool and per model endpoint, and their states. Any"
            + " authenticated user may read them (they name tools and endpoints, nothing of any run).",
        200, "The breakers", List.of(), null));
    add("GET /openapi.json", new Operation("getOpenApiDocument", "openapi", "This document",
        "The OpenAPI document of AgentLoop's API, its server set to where this application serves the API.",
        200, "The OpenAPI document", List.of(), null));
  }

  /** The request records' simple names, said in the document as what they are. */
  private static final Map<String, String> REQUESTS = Map.of("Edit", "EditRequest", "Reason", "ReasonRequest",
      "Regenerate", "RegenerateRequest", "Restart", "RestartRequest", "Message", "MessageRequest",
      "MigrationBody", "MigrationRequest");

  /** One line per schema, as its record's javadoc says it. */
  private static final Map<String, String> SCHEMAS = Map.ofEntries(
      Map.entry("ActiveStep", "What a run does at this moment: a model call, tool calls, a remote tool call, a"
          + " person's task, a failed call waiting for its retry"),
      Map.entry("AgentOwner", "Who owns an agent's key: AgentLoop, the application, a group (with who made it the"
          + " group's, and when), or nobody yet"),
      Map.entry("OwnerRequest", "The group that owns the key from now on"),
      Map.entry("BreakerView", "A circuit breaker: `tool:<tool>`, `mcp:<server>` or `model:<endpoint>`, and its state"),
      Map.entry("Amount", "One budget of a run: what the run and the agents it called used (`used`) against its limit"
          + " (`null` where the run has none), and what the run used itself (`own`)"),
      Map.entry("ConversationTurn", "One turn of a conversation: a question and the answer the agent gave to it"),
      Map.entry("Decision", "What a person (or AgentLoop, for an agent that accepts automatically) decided on a step"
          + " without writing one: a plan accepted unchanged, an answer accepted or regenerated, a run stopped, a run"
          + " moved to another version of its agent (`migrate`, with `fromVersion` and `toVersion`)"),
      Map.entry("AgentVersion", "A deployed version of an agent, with its open runs and all its runs"),
      Map.entry("MigrationRequest", "Which runs move to which version of the agent, why, whether only as a dry run,"
          + " and what becomes of a run busy in a call"),
      Map.entry("MigrationReport", "What a migration did (or, in a dry run, would do) to each run, with the counts"),
      Map.entry("RunMove", "What became of one run of a migration: migrated, refused or pending, and why in words"),
      Map.entry("EditRequest", "The edited content of a step, why, and the run's version the edit was made on"),
      Map.entry("JsonNode", "Any JSON value; a step's content is an object whose fields depend on its kind"),
      Map.entry("MessageRequest", "A conversation's next question"),
      Map.entry("Problem", "An RFC 9457 problem document"),
      Map.entry("PromptView", "What the model received in the call that wrote a step: messages and tools as"
          + " AgentLoop handed them to the model adapter (no endpoint, header or key)"),
      Map.entry("ReasonRequest", "Why (a stop must say it; a close may)"),
      Map.entry("RegenerateRequest", "Which turn's answer is regenerated (default the newest) and why"),
      Map.entry("RestartRequest", "The step a finished run is restarted from, and why"),
      Map.entry("ResumeResult", "What an edit or a regenerate did, with the side effects of the superseded branch"),
      Map.entry("ReviewTaskView", "An open user task of a run, with the form data it was given"),
      Map.entry("RunActions", "What the caller may do with a run now (the service checks again on every call)"),
      Map.entry("BudgetUse", "What a run used of its budget, over all its turns and the runs it called, as they used"
          + " it"),
      Map.entry("RunCosts", "What a run's calls cost altogether, superseded branches included"),
      Map.entry("RunMoney", "What a run's model calls cost by the price table (`agentloop.llm.prices`), and what they"
          + " would have cost without the prompt cache; calls the table cannot price are counted apart"),
      Map.entry("Money", "What one step's model call cost by the price table, and what it would have cost without the"
          + " prompt cache"),
      Map.entry("Child", "A child run answering one of the run's calls of an agent, and what it does now"),
      Map.entry("RunView", "A run as people see it: status, what it waits for, the newest answer, its turns, what"
          + " it used, and `version` for edits"),
      Map.entry("SideEffect", "A call of a side-effecting tool that ran on a branch an edit abandoned"),
      Map.entry("StartRunRequest", "The question, and the agent (default: AgentLoop's default agent, `react-agent`"
          + " unless `agentloop.deployment.default-agent-key` names another)"),
      Map.entry("StepCost", "What writing a step cost: the model call's latency and tokens, or the tool call's"
          + " latency; `null` counts were not reported"),
      Map.entry("StepView", "One step of a trace, with its cost and whether its prompt can be read"),
      Map.entry("TraceDeletion", "The tombstone of a trace deleted on purpose: which run, when, by whom, why"),
      Map.entry("EvaluationBody", "The candidate (`diagram` or `version`), the cases (`runs`, `recent`, `cases`), the"
          + " replay's choices, the judge and why"),
      Map.entry("EvaluationView", "An evaluation: what was evaluated, where it stands, its cases and their summary"),
      Map.entry("CaseView", "One case: the recorded run or data-set case, where it stands, its verdict and result"),
      Map.entry("CaseResult", "What a case came to: both sides, the checks, the marks of the replay, an error"),
      Map.entry("CaseSide", "One side of a case, recorded or candidate: outcome, answer, fields, steps, tokens, cost"),
      Map.entry("Check", "One check of a case and how it went, with the judge's score and reasoning"),
      Map.entry("DataSetCase", "A question of a data set, its later questions, and what its answer must be"),
      Map.entry("Expectations", "What a data-set case's answer must contain, match, have in its fields, end as"),
      Map.entry("ReplayChoices", "What the replay does where the record has no answer"),
      Map.entry("JudgeSpec", "A model scoring each answer against the reference by a rubric, 0 to 1"),
      Map.entry("JudgeUse", "What the judge's calls used"),
      Map.entry("Promotion", "Who made the candidate the agent's version, when, why, and which version"),
      Map.entry("Summary", "The cases counted by verdict, and what the recorded runs, candidate runs and judge used"),
      Map.entry("Totals", "What runs used together"),
      Map.entry("TraceView", "A run's steps (the active path or all branches) and the decisions people took"));

  private static final Map<String, String> TAGS = Map.of(
      "runs", "Start runs, search and read them, their traces, prompts and open tasks",
      "agents", "Who owns an agent's key, its versions, and moving its waiting runs from one to another",
      "resume", "Change a run's course: edit a step, regenerate, stop, restart",
      "conversations", "Follow-up questions of a run that is a conversation",
      "breakers", "The circuit breakers of tools and model endpoints",
      "evaluations", "Candidates of agents evaluated on recorded runs and data sets, and their promotion",
      "openapi", "This document");

  private static final Map<String, String> PARAMETERS = Map.ofEntries(
      Map.entry("id", "the run's id (its process instance id)"),
      Map.entry("stepId", "the step's number in the trace (`stepNo`)"),
      Map.entry("no", "the step's number in the trace (`stepNo`)"),
      Map.entry("taskId", "the task's id, as `GET /runs/{id}/tasks` lists it"),
      Map.entry("agent", "the agent's process key"),
      Map.entry("key", "the agent's process key"),
      Map.entry("finished", "only finished runs (ANSWERED, REJECTED, STOPPED, CANCELLED); older spelling of `status`"),
      Map.entry("limit", "older spelling of `size`"),
      Map.entry("status", "one run status (RUNNING, WAITING, FAILED, ANSWERED, REJECTED, STOPPED, CANCELLED), any case"),
      Map.entry("from", "runs started from then: a date (`2026-11-24`, from its start, UTC) or an instant"
          + " (`2026-11-24T12:00:00Z`)"),
      Map.entry("to", "runs started before then: a date (its whole day included) or an instant"),
      Map.entry("editedBy", "runs in which this user wrote a step (an edit, a decision, an answer)"),
      Map.entry("q", "a piece of the run's question, any case, at most 200 characters"),
      Map.entry("page", "the page, from 0"),
      Map.entry("size", "runs per page, 1 to 500 (default 50)"),
      Map.entry("conversationId", "the runs started under this conversation id (`POST /runs` with `conversationId`),"
          + " of any agent unless `agent` is given"),
      Map.entry("branches", "`active` (the path the model sees) or `all` (superseded branches too)"),
      Map.entry("reason", "why the trace is deleted, for the audit"),
      Map.entry("migrationId", "the migration's id, as `POST /agents/{key}/migrations` answered it"),
      Map.entry("evaluationId", "the evaluation's id"),
      Map.entry("Last-Event-ID", "the id of the last event received, to resume after it; none: from the run's first"
          + " step"));

  private static final Map<Integer, String[]> PROBLEMS = new TreeMap<>(Map.of(
      503, new String[] {"ServiceUnavailable", "The node follows as many runs as it may"
          + " (`agentloop.events.max-followers`); try again after `Retry-After` seconds, or on another node",
          "Too many followers", "this node follows 1000 runs for clients already (agentloop.events.max-followers):"
          + " try again later, or on another node"},
      400, new String[] {"BadRequest", "The request is not valid; `detail` names the field or parameter and what it"
          + " must be", "Invalid request", "question must not be blank: say what the agent should answer"},
      401, new String[] {"Unauthorized", "No credentials, or wrong ones", "Unauthorized",
          "send HTTP Basic credentials of a Camunda user (curl -u user:password), or log in to the Camunda webapps"},
      403, new String[] {"Forbidden", "The caller may not do this (a right on the agent, a webapp session's CSRF"
          + " token, a user of agent-workers)", "Forbidden",
          "The user with id 'mary' does not have 'CREATE_INSTANCE' permission on resource 'react-agent'"},
      404, new String[] {"NotFound", "No such run (or one the caller may not read), step, task or prompt",
          "Unknown run", "no run with id 3f2a9c1e-8b1d-11ef-9c2a-0242ac120002"},
      409, new String[] {"Conflict", "The run's state does not allow it, or it changed at the same moment; nothing"
          + " was applied", "Conflict", "the run changed at the same moment (another request, or the agent's own"
          + " step); nothing of this request was applied: read the run again and retry"},
      413, new String[] {"PayloadTooLarge", "The body is larger than the API reads (4 MiB)",
          "Request body too large", "the request body may have at most 4194304 bytes (4 MiB)"}));

  private ApiDocumentation() {}

  private static void add(String key, Operation operation) {
    OPERATIONS.put(key, operation);
  }

  /** {@code METHOD path} (path below the base path) of every documented operation. */
  static List<String> operations() {
    return List.copyOf(OPERATIONS.keySet());
  }

  /**
   * The document springdoc generated for the API under {@code basePath}, documented and in a stable order.
   *
   * @throws IllegalStateException naming every operation springdoc found that is not documented here
   */
  static ObjectNode describe(JsonNode generated, String basePath) {
    ObjectNode document = JSON.createObjectNode();
    document.put("openapi", generated.path("openapi").asText("3.1.0"));
    ObjectNode info = document.putObject("info");
    info.put("title", "AgentLoop API");
    info.put("version", VERSION);
    info.put("description", "LLM ReAct agents as BPMN processes on Camunda 7: start runs, read their traces, change"
        + " their course. Every error is an RFC 9457 problem document (`application/problem+json`) whose `detail`"
        + " says what was wrong and how to fix it. Paths are relative to the server, `" + DEFAULT_BASE_PATH
        + "` unless the application sets `agentloop.api.base-path`; `GET " + DEFAULT_BASE_PATH
        + "/openapi.json` of a running application names its own.");
    document.putArray("servers").addObject().put("url", DEFAULT_BASE_PATH)
        .put("description", "AgentLoop's API in the application (agentloop.api.base-path)");
    ArrayNode security = document.putArray("security");
    security.addObject().putArray("basicAuth");
    security.addObject().putArray("camundaSession");
    ArrayNode tags = document.putArray("tags");
    List.of("runs", "resume", "conversations", "agents", "evaluations", "breakers", "openapi")
        .forEach(tag -> tags.addObject().put("name", tag).put("description", TAGS.get(tag)));

    List<String> undocumented = new ArrayList<>();
    // springdoc's order of paths follows Spring's handler map; sorted, the document is the same at every run
    Map<String, Map<String, JsonNode>> paths = new TreeMap<>();
    generated.path("paths").fields().forEachRemaining(path -> {
      if (!path.getKey().startsWith(basePath + "/")) {
        undocumented.add("a path outside " + basePath + ": " + path.getKey());
        return;
      }
      String relative = path.getKey().substring(basePath.length());
      path.getValue().fields().forEachRemaining(method -> {
        String key = method.getKey().toUpperCase() + " " + relative;
        Operation operation = OPERATIONS.get(key);
        if (operation == null) {
          undocumented.add(key);
        } else {
          paths.computeIfAbsent(relative, p -> new TreeMap<>())
              .put(method.getKey(), operation((ObjectNode) method.getValue(), operation));
        }
      });
    });
    if (!undocumented.isEmpty()) {
      throw new IllegalStateException("operations without documentation: " + undocumented + "; describe them in "
          + ApiDocumentation.class.getName());
    }
    ObjectNode documentedPaths = document.putObject("paths");
    paths.forEach((path, methods) -> methods.forEach(documentedPaths.putObject(path)::set));

    ObjectNode components = document.putObject("components");
    Map<String, JsonNode> schemas = new TreeMap<>();
    generated.path("components").path("schemas").fields().forEachRemaining(schema ->
        schemas.put(REQUESTS.getOrDefault(schema.getKey(), schema.getKey()), renamed(schema.getValue())));
    schemas.put("Problem", problemSchema());
    schemas.remove("SseEmitter"); // Spring's emitter, not what goes over the wire: see streamResponse
    List<String> unexplained = schemas.keySet().stream().filter(name -> !SCHEMAS.containsKey(name)).toList();
    if (!unexplained.isEmpty()) {
      throw new IllegalStateException("schemas without description: " + unexplained + "; describe them in "
          + ApiDocumentation.class.getName());
    }
    schemas.forEach((name, schema) -> ((ObjectNode) schema).put("description", SCHEMAS.get(name)));
    schemas.forEach(components.putObject("schemas")::set);
    components.set("responses", problemResponses());
    ObjectNode schemes = components.putObject("securitySchemes");
    schemes.putObject("basicAuth").put("type", "http").put("scheme", "basic")
        .put("description", "HTTP Basic credentials of a Camunda user (or, where the application has Spring"
            + " Security, of one of its own users with a Camunda user of the same id)");
    schemes.putObject("camundaSession").put("type", "apiKey").put("in", "cookie").put("name", "JSESSIONID")
        .put("description", "A session of the Camunda webapps (the Cockpit plugin); a change (POST, DELETE) must"
            + " carry the session's CSRF token in the `X-XSRF-TOKEN` header");
    return document;
  }

  private static ObjectNode operation(ObjectNode generated, Operation operation) {
    ObjectNode documented = JSON.createObjectNode();
    documented.putArray("tags").add(operation.tag());
    documented.put("operationId", operation.operationId());
    documented.put("summary", operation.summary());
    documented.put("description", operation.description());
    if (generated.has("parameters")) {
      ArrayNode parameters = documented.putArray("parameters");
      for (JsonNode parameter : generated.get("parameters")) {
        ObjectNode copy = parameter.deepCopy();
        String name = parameter.get("name").asText();
        String description = PARAMETERS.get(name);
        if (description == null) {
          throw new IllegalStateException("parameter " + name + " of " + operation.operationId()
              + " has no description in " + ApiDocumentation.class.getName());
        }
        copy.put("description", description);
        parameters.add(copy);
      }
    }
    if (generated.has("requestBody")) {
      ObjectNode body = renamed(generated.get("requestBody")).deepCopy();
      if (operation.example() == null) {
        throw new IllegalStateException(operation.operationId() + " takes a body but has no example");
      }
      try {
        ((ObjectNode) body.path("content").path("application/json")).set("example", JSON.readTree(operation.example()));
      } catch (Exception e) {
        throw new IllegalStateException("the example of " + operation.operationId() + " is no JSON", e);
      }
      documented.set("requestBody", body);
    }
    ObjectNode responses = documented.putObject("responses");
    JsonNode ok = renamed(generated.path("responses").path("200")).deepCopy();
    ((ObjectNode) ok).put("description", operation.successDescription());
    if (operation.success() == 201) {
      ((ObjectNode) ok).putObject("headers").putObject("Location").put("description", "the run's URL")
          .putObject("schema").put("type", "string");
    }
    if (operation.operationId().equals("listRuns")) {
      ((ObjectNode) ok).putObject("headers").putObject("X-Total-Count")
          .put("description", "how many runs the caller may read match, on all pages")
          .putObject("schema").put("type", "integer");
    }
    if (operation.operationId().equals("followRun")) {
      ok = streamResponse(operation);
    }
    responses.set(String.valueOf(operation.success()), ok);
    if (operation.operationId().equals("migrateRuns")) {
      ObjectNode accepted = ok.deepCopy();
      accepted.put("description", "A Camunda batch moves the runs: the migration as it starts, to follow at `Location`");
      accepted.putObject("headers").putObject("Location").put("description", "the migration's URL")
          .putObject("schema").put("type", "string");
      responses.set("202", accepted);
    }
    List<Integer> problems = new ArrayList<>(operation.problems());
    problems.addAll(List.of(401, 403));
    problems.stream().sorted().distinct().forEach(status -> responses.putObject(String.valueOf(status))
        .put("$ref", "#/components/responses/" + PROBLEMS.get(status)[0]));
    return documented;
  }

  /** A copy whose references to the request records (Edit, Reason, ...) use their names in the document. */
  private static JsonNode renamed(JsonNode node) {
    JsonNode copy = node.deepCopy();
    copy.findParents("$ref").forEach(parent -> {
      String ref = parent.get("$ref").asText();
      String name = ref.substring(ref.lastIndexOf('/') + 1);
      if (REQUESTS.containsKey(name)) {
        ((ObjectNode) parent).put("$ref", "#/components/schemas/" + REQUESTS.get(name));
      }
    });
    return copy;
  }

  /** A stream of server-sent events: text, each event an id, a name and one line of JSON. */
  private static ObjectNode streamResponse(Operation operation) {
    ObjectNode ok = JSON.createObjectNode().put("description", operation.successDescription());
    ok.putObject("content").putObject("text/event-stream").putObject("schema").put("type", "string")
        .put("description", "server-sent events: `id: 12-R`, `event: step`, `data: {...}` and a blank line each")
        .put("example", "id: 1-N\nevent: step\ndata: {\"runId\":\"...\",\"id\":1,\"kind\":\"PLAN\",...}\n\n");
    return ok;
  }

  private static ObjectNode problemSchema() {
    ObjectNode schema = JSON.createObjectNode();
    schema.put("type", "object");
    ObjectNode properties = schema.putObject("properties");
    properties.putObject("type").put("type", "string").put("format", "uri-reference").put("default", "about:blank");
    properties.putObject("title").put("type", "string").put("description", "what kind of problem, in a few words");
    properties.putObject("status").put("type", "integer").put("description", "the HTTP status");
    properties.putObject("detail").put("type", "string")
        .put("description", "what was wrong and how to fix it, in words");
    properties.putObject("instance").put("type", "string").put("format", "uri-reference")
        .put("description", "the path of the request");
    schema.putArray("required").add("status").add("detail");
    return schema;
  }

  private static ObjectNode problemResponses() {
    ObjectNode responses = JSON.createObjectNode();
    PROBLEMS.forEach((status, problem) -> {
      ObjectNode response = responses.putObject(problem[0]);
      response.put("description", problem[1]);
      ObjectNode content = response.putObject("content").putObject("application/problem+json");
      content.putObject("schema").put("$ref", "#/components/schemas/Problem");
      content.putObject("example").put("type", "about:blank").put("title", problem[2]).put("status", status)
          .put("detail", problem[3]);
    });
    return responses;
  }

}
