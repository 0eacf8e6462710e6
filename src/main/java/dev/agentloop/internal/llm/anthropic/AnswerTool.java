package dev.agentloop.internal.llm.anthropic;

import dev.agentloop.internal.llm.langchain4j.ToolMapping;
import dev.agentloop.spi.AnswerFormat;
import dev.agentloop.spi.ModelRequest;
import dev.agentloop.spi.ToolCall;
import dev.agentloop.spi.ToolSpec;
import dev.langchain4j.agent.tool.ToolSpecification;
import java.util.ArrayList;
import java.util.List;

/**
 * An agent's answer schema in Anthropic's form: a tool the model answers by calling, whose input schema is the
 * answer schema, offered beside the agent's tools. Where the request may (thinking off) it is forced, with
 * {@code tool_choice: any}: the model calls a tool every turn, this one to answer; with extended thinking Anthropic
 * allows no forced tool, and the answer tool is offered only. The reply's call of it becomes the reply's text, the
 * answer's JSON, which AgentLoop validates like any answer. Thread-safe.
 */
final class AnswerTool {

  /** The answer tool's name, unless one of the agent's tools has it. */
  static final String NAME = "final_answer";

  private AnswerTool() {}

  /** The answer tool's name for this request, or {@code null} when its answer is text. */
  static String nameFor(ModelRequest request) {
    if (request.answer() == null) {
      return null;
    }
    String name = NAME;
    for (int n = 2; taken(request, name); n++) {
      name = NAME + "_" + n;
    }
    return name;
  }

  private static boolean taken(ModelRequest request, String name) {
    return request.tools().stream().anyMatch(tool -> tool.name().equals(name));
  }

  static ToolSpecification specification(String name, AnswerFormat answer) {
    return ToolMapping.toSpecification(new ToolSpec(name, "Give your final answer: call this tool with the answer's"
        + " fields, once you know them, instead of answering in text.", answer.schema()));
  }

  /** The calls of a reply, less the answer tool's, and the answer tool's arguments; {@code null} without one. */
  record Split(List<ToolCall> calls, String answer) {

    static Split of(List<ToolCall> calls, String answerTool) {
      if (answerTool == null) {
        return new Split(calls, null);
      }
      List<ToolCall> others = new ArrayList<>();
      String answer = null;
      for (ToolCall call : calls) {
        if (call.name().equals(answerTool) && answer == null) {
          answer = call.arguments();
        } else {
          others.add(call);
        }
      }
      return new Split(others, answer);
    }
  }
}
