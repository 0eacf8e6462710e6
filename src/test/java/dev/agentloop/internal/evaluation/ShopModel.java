package dev.agentloop.internal.evaluation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Recorded;
import dev.agentloop.internal.llm.openai.FakeOpenAiServer.Response;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The model of the evaluation tests, on the OpenAI wire: a shop assistant that plans in one step, looks a price up (or
 * refunds an order) once and answers with what the tool said. Under a prompt that says {@value #TERSE} it misreads
 * the price of apples (the regression an evaluation has to find); under one that says {@value #CURIOUS} it also looks
 * up plums, which no recorded run did. As judge it scores an answer 1 where it names the reference's price, else 0.1.
 */
public final class ShopModel {

  public static final String TERSE = "Be terse.";
  static final String CURIOUS = "Compare with plums.";
  static final AtomicInteger JUDGED = new AtomicInteger();

  private ShopModel() {}

  public static Response answer(Recorded request) {
    JsonNode messages = request.body().path("messages");
    String first = messages.path(0).path("content").asText();
    if (first.startsWith("Write a short plan")) {
      return ok(FakeOpenAiServer.textCompletion("1. Look it up. 2. Answer.", 10, 5));
    }
    if (first.startsWith("You judge an AI agent's answer")) {
      return judge(messages.path(1).path("content").asText());
    }
    String all = messages.toString();
    String question = firstUserText(messages);
    int tools = 0;
    String lastTool = null;
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals("tool")) {
        tools++;
        lastTool = message.path("content").asText();
      }
    }
    if (question.contains("Refund")) {
      return tools == 0 ? call("issue_refund", "{\"order\": 42}")
          : ok(FakeOpenAiServer.textCompletion("Order 42: " + lastTool, 10, 5));
    }
    String item = question.contains("apples") ? "apples" : "pears";
    if (tools == 0) {
      return call("price_lookup", "{\"item\": \"" + item + "\"}");
    }
    if (tools == 1 && all.contains(CURIOUS)) {
      return call("price_lookup", "{\"item\": \"plums\"}");
    }
    String price = all.contains(TERSE) && item.equals("apples") ? "7 EUR" : priceIn(all, item);
    return ok(FakeOpenAiServer.textCompletion("The " + item + " cost " + price + ".", 10, 5));
  }

  private static String priceIn(String all, String item) {
    return all.contains(item + ": 3 EUR") ? "3 EUR" : all.contains(item + ": 2 EUR") ? "2 EUR" : "unknown";
  }

  private static Response judge(String text) {
    JUDGED.incrementAndGet();
    String reference = text.substring(text.indexOf("Reference answer:") + "Reference answer:".length(),
        text.indexOf("Candidate answer:")).strip();
    String candidate = text.substring(text.indexOf("Candidate answer:") + "Candidate answer:".length()).strip();
    String price = reference.contains("3 EUR") ? "3 EUR" : reference.contains("2 EUR") ? "2 EUR" : reference;
    boolean same = candidate.contains(price);
    String verdict = same ? "{\"score\": 1, \"reasoning\": \"the same price\"}"
        : "{\"score\": 0.1, \"reasoning\": \"the candidate names another price than the reference's " + price + "\"}";
    return ok(FakeOpenAiServer.textCompletion(verdict, 20, 10));
  }

  private static String firstUserText(JsonNode messages) {
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals("user")) {
        return message.path("content").asText();
      }
    }
    return "";
  }

  private static Response call(String tool, String arguments) {
    return ok(FakeOpenAiServer.toolCallCompletion("call_" + tool + "_" + arguments.hashCode(), tool, arguments, 10, 5));
  }

  private static Response ok(String body) {
    return new Response(200, body);
  }
}
