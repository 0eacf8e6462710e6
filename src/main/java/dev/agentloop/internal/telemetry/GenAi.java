package dev.agentloop.internal.telemetry;

/**
 * The names of the OpenTelemetry GenAI semantic conventions that AgentLoop's spans use
 * ({@code gen_ai_latest_experimental}).
 */
final class GenAi {

  static final String INVOKE_AGENT = "invoke_agent";
  static final String CHAT = "chat";
  static final String EXECUTE_TOOL = "execute_tool";
  static final String PLAN = "plan";

  static final String OPERATION_NAME = "gen_ai.operation.name";
  static final String PROVIDER_NAME = "gen_ai.provider.name";
  static final String AGENT_NAME = "gen_ai.agent.name";
  static final String AGENT_ID = "gen_ai.agent.id";
  static final String AGENT_VERSION = "gen_ai.agent.version";
  static final String AGENT_DESCRIPTION = "gen_ai.agent.description";
  static final String CONVERSATION_ID = "gen_ai.conversation.id";
  static final String REQUEST_MODEL = "gen_ai.request.model";
  static final String INPUT_TOKENS = "gen_ai.usage.input_tokens";
  static final String OUTPUT_TOKENS = "gen_ai.usage.output_tokens";
  static final String CACHE_READ_TOKENS = "gen_ai.usage.cache_read.input_tokens";
  static final String CACHE_CREATION_TOKENS = "gen_ai.usage.cache_creation.input_tokens";
  static final String RESPONSE_MODEL = "gen_ai.response.model";
  static final String RESPONSE_ID = "gen_ai.response.id";
  static final String SERVER_ADDRESS = "server.address";
  static final String SERVER_PORT = "server.port";
  static final String FINISH_REASONS = "gen_ai.response.finish_reasons";
  static final String INPUT_MESSAGES = "gen_ai.input.messages";
  static final String OUTPUT_MESSAGES = "gen_ai.output.messages";
  static final String TOOL_NAME = "gen_ai.tool.name";
  static final String TOOL_TYPE = "gen_ai.tool.type";
  static final String TOOL_CALL_ID = "gen_ai.tool.call.id";
  static final String TOOL_CALL_ARGUMENTS = "gen_ai.tool.call.arguments";
  static final String TOOL_CALL_RESULT = "gen_ai.tool.call.result";
  static final String ERROR_TYPE = "error.type";

  private GenAi() {}
}
