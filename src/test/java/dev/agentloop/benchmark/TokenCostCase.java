package dev.agentloop.benchmark;

import java.util.regex.Pattern;

/**
 * Where the fact the token cost benchmark asks for sits: the run reads an archive page at each turn (a
 * calculator call every fourth), and the result of turn 3 holds "The vault code is 4711." somewhere.
 * Pages are 1,200 to 4,000 characters of English text, so no page is cut for the prompt.
 */
enum TokenCostCase {

  PAGE_START("start of a page"),
  PAGE_MIDDLE("middle of a page"),
  PAGE_END("end of a page"),
  SHORT_RESULT("short web result"),
  NOTED("middle of a page, noted in a thought");

  static final int TURNS = 200;
  static final int FACT_TURN = 3;
  static final String CODE = "4711";
  static final String FACT = "The vault code is " + CODE + ".";
  /** How the scripted model finds the code in its prompt (and how a note or an answer states it). */
  static final Pattern FACT_PATTERN = Pattern.compile("vault code is (\\d+)");
  private static final String URL = "https://archive.example/notes.txt";
  private static final String[] WORDS = {"budget", "meeting", "quarterly", "report", "department", "decided",
      "review", "the", "of", "and", "was", "to", "contract", "supplier", "invoice", "approved", "March", "team",
      "project", "delivery"};

  private final String label;

  TokenCostCase(String label) {
    this.label = label;
  }

  boolean notes() {
    return this == NOTED;
  }

  /** The case's name and where the fact sits in its result, in characters. */
  String where() {
    String result = result(FACT_TURN);
    int at = result.indexOf(FACT);
    return String.format("%s (chars %d-%d of %d)", label, at, at + FACT.length(), result.length());
  }

  String tool(int turn) {
    if (turn % 4 == 0) {
      return "calculator";
    }
    return this == SHORT_RESULT && turn == FACT_TURN ? "http_get" : "read_document";
  }

  String arguments(int turn) {
    return switch (tool(turn)) {
      case "calculator" -> "{\"expression\":\"" + turn + " * 37 + 11\"}";
      case "http_get" -> "{\"url\":\"" + URL + "\"}";
      default -> "{\"page\":\"" + turn + "\"}";
    };
  }

  /** The result of the turn's call: a number, the web result or a page of the archive. */
  String result(int turn) {
    return switch (tool(turn)) {
      case "calculator" -> String.valueOf(turn * 37 + 11);
      case "http_get" -> "Fetched " + URL + " (text/plain, 1 line): " + FACT;
      default -> turn == FACT_TURN ? pageWithFact() : page(turn, "");
    };
  }

  private String pageWithFact() {
    return switch (this) {
      case PAGE_START -> page(FACT_TURN, FACT + " ");
      case PAGE_END -> page(FACT_TURN, "") + FACT;
      default -> {
        String page = page(FACT_TURN, "");
        int middle = page.indexOf(". ", page.length() / 2) + 2;
        yield page.substring(0, middle) + FACT + " " + page.substring(middle);
      }
    };
  }

  private static String page(int turn, String lead) {
    StringBuilder text = new StringBuilder("Archive page ").append(turn).append(". ").append(lead);
    int length = 1_200 + (turn * 373) % 2_800;
    for (int i = 0; text.length() < length; i++) {
      text.append(WORDS[(i * 7 + turn) % WORDS.length]).append(i % 11 == 10 ? ". " : " ");
    }
    return text.toString();
  }
}
