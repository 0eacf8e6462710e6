package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;

/**
 * Body of {@code POST /api/runs}.
 *
 * @param question what the agent should answer; a NUL in it is stored as U+FFFD, as all text is
 * @param agent the agent's process key; default AgentLoop's default agent ({@code agentloop.deployment.default-agent-key},
 *     {@code react-agent} unless set)
 * @param conversationId the client's own id for the conversation (e.g. {@code crm-4711}), kept as the process
 *     instance's business key: {@code GET /api/runs?conversationId=} finds the run by it; one open run per id
 * @param answerSchema a JSON Schema of an object that the run's final answer must match, over the agent's own
 *     {@code answerSchema}; the answer's fields then come as {@code answerData}
 */
record StartRunRequest(
    @NotBlank(message = "must not be blank: say what the agent should answer")
    @Size(max = 20_000, message = "must be at most 20000 characters")
    String question,
    @Size(max = 255, message = "must be at most 255 characters")
    @Pattern(regexp = "[^\\x00]*", message = "must be a process-definition key, without NUL characters")
    String agent,
    @Pattern(regexp = CONVERSATION_ID, message = "must be 1 to 100 letters, digits or . _ : @ - characters,"
        + " starting with a letter or digit (the client's own id of the conversation, e.g. crm-4711)")
    String conversationId,
    JsonNode answerSchema) {

  /** What a conversation id may be: safe in a URL's query and a log line, and well inside the business key's 255. */
  static final String CONVERSATION_ID = "[A-Za-z0-9][A-Za-z0-9._:@-]{0,99}";
}
