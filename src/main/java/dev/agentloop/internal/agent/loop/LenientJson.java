package dev.agentloop.internal.agent.loop;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the JSON object a model meant, leniently where models slip and strictly where reading more would guess:
 * trailing commas are read over, and an object wrapped in one markdown fence is read without it. A tool call's
 * arguments must be that object and nothing else ({@code {"a": 1} {"b": 2}} is not one arguments object, half of it
 * is not either); a final answer may also wrap it in prose ("Here is the triage: {...} Let me know."), where the
 * first object the text holds is the answer. Never throws on model output. Thread-safe.
 */
final class LenientJson {

  private static final ObjectMapper WHOLE = JsonMapper.builder().enable(JsonReadFeature.ALLOW_TRAILING_COMMA)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
  private static final ObjectMapper FIRST = JsonMapper.builder().enable(JsonReadFeature.ALLOW_TRAILING_COMMA).build();
  /** One markdown fence around a whole text, with an optional language: {@code ```json ... ```}. */
  private static final Pattern FENCED = Pattern.compile("\\A\\s*```[\\w+-]*[ \\t]*\\R?(.*?)\\R?\\s*```\\s*\\z",
      Pattern.DOTALL);
  /** How many opening braces of a text are tried before it is taken to hold no object. */
  private static final int STARTS_TRIED = 64;

  private LenientJson() {}

  /** The text as one JSON object, or within one fence; {@code null} when it is neither. */
  static JsonNode wholeObject(String text) {
    JsonNode json = parse(WHOLE, text);
    if (json == null) {
      Matcher fenced = FENCED.matcher(text);
      json = fenced.matches() ? parse(WHOLE, fenced.group(1)) : null;
    }
    return json;
  }

  /** The object the text is, or else the first one it holds; {@code null} when it holds none. */
  static JsonNode objectWithin(String text) {
    JsonNode whole = wholeObject(text);
    if (whole != null) {
      return whole;
    }
    int tried = 0;
    for (int start = text.indexOf('{'); start >= 0 && tried < STARTS_TRIED; start = text.indexOf('{', start + 1)) {
      tried++;
      JsonNode first = first(text.substring(start));
      if (first != null) {
        return first;
      }
    }
    return null;
  }

  private static JsonNode parse(ObjectMapper mapper, String text) {
    try {
      JsonNode json = mapper.readTree(text);
      return json != null && json.isObject() ? json : null;
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  /** The object a text begins with, whatever follows it. */
  private static JsonNode first(String text) {
    try (JsonParser parser = FIRST.createParser(text)) {
      JsonNode json = FIRST.readTree(parser);
      return json != null && json.isObject() ? json : null;
    } catch (IOException e) {
      return null;
    }
  }
}
