package com.example.desk;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The model of the CI check, as {@link FakeOpenAi} serves it: a plain, predictable reader of its prompt. Asked about
 * an order, it looks the order up with order_status and answers with what the tool said; asked anything else, it
 * answers with the sentence of its system prompt that shares the most words with the question — so what the diagram's
 * prompt says is what the agent answers, and a prompt change shows in the answers as it would with a real model.
 */
final class OrderDeskModel {

  static final String NO_ANSWER = "I can only help with Example Shop's orders.";
  private static final Pattern ORDER = Pattern.compile("(?i)order #?(\\d+)");

  private OrderDeskModel() {}

  static FakeOpenAi.Reply reply(JsonNode request) {
    JsonNode messages = request.path("messages");
    String system = messages.path(0).path("content").asText();
    if (system.startsWith("Write a short plan")) {
      return FakeOpenAi.Reply.text("[\"Read the question\", \"Reply\"]");
    }
    String question = firstOf(messages, "user");
    Matcher order = ORDER.matcher(question);
    if (order.find()) {
      String looked = firstOf(messages, "tool");
      return looked.isEmpty() ? FakeOpenAi.Reply.call("order_status", "{\"order\": " + order.group(1) + "}")
          : FakeOpenAi.Reply.text("Order " + order.group(1) + ": " + looked + ".");
    }
    // the diagram's prompt, without the plan AgentLoop adds to it
    String prompt = system.split("\n\nPlan:")[0];
    Set<String> asked = words(question);
    return Arrays.stream(prompt.split("(?<=[.;])\\s+"))
        .filter(sentence -> words(sentence).stream().anyMatch(asked::contains))
        .max(Comparator.comparingLong(sentence -> words(sentence).stream().filter(asked::contains).count()))
        .map(FakeOpenAi.Reply::text).orElse(FakeOpenAi.Reply.text(NO_ANSWER));
  }

  private static String firstOf(JsonNode messages, String role) {
    for (JsonNode message : messages) {
      if (message.path("role").asText().equals(role)) {
        return message.path("content").asText();
      }
    }
    return "";
  }

  /** The words of four letters or more, in lower case. */
  private static Set<String> words(String text) {
    return Arrays.stream(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\d]+"))
        .filter(word -> word.length() >= 4).collect(Collectors.toSet());
  }
}
