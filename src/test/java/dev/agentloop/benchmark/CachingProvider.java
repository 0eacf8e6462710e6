package dev.agentloop.benchmark;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.llm.FakeModelServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/**
 * A fake provider of the token cost benchmark: plays the scripted model, counts the prompt's tokens
 * and what its cache served. The model reads page after page (a calculator call every fourth turn) and
 * at the last turn answers with the vault code its prompt holds, if any: it reads the prompt as it
 * arrived, so a fact cut short (a code cut after two digits) gives a wrong answer, not a right one. In
 * a story where the model notes what it reads, its first thought after seeing the code says it.
 */
abstract class CachingProvider {

  static final ObjectMapper JSON = new ObjectMapper();

  final List<Integer> prompt = new ArrayList<>();
  final List<Integer> cached = new ArrayList<>();
  final Tokenizer tokenizer = new Tokenizer();
  private final TokenCostCase story;
  private boolean noted;

  CachingProvider(TokenCostCase story) {
    this.story = story;
  }

  FakeModelServer.Reply answer(FakeModelServer.Received received) {
    JsonNode body = received.body();
    int turn = prompt.size() + 1;
    int[] counted = count(body);
    prompt.add(counted[0]);
    cached.add(counted[1]);
    Matcher fact = TokenCostCase.FACT_PATTERN.matcher(body.toString());
    String code = fact.find() ? fact.group(1) : null;
    String reply;
    if (turn == TokenCostCase.TURNS) {
      reply = reply(code != null ? "The vault code is " + code + "." : "The archive I can see does not say.", null,
          null, counted);
    } else {
      String thought = "Page " + turn + ".";
      if (story.notes() && code != null && !noted) {
        thought = "Noted for later: the vault code is " + code + ".";
        noted = true;
      }
      reply = reply(thought, story.tool(turn), story.arguments(turn), counted);
    }
    return new FakeModelServer.Reply(200, reply, Duration.ZERO, Map.of());
  }

  /** The prompt's tokens and how many of them the cache served. */
  abstract int[] count(JsonNode body);

  abstract String reply(String text, String tool, String arguments, int[] counted);
}
