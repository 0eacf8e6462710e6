package dev.agentloop.internal.trace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How {@link PromptArchive} writes a prompt as a change of its base: a list of segments, each a range of the base's
 * messages ({@code {"ref": [from, to]}}) or a message of its own (a message has a {@code role}, a range none).
 * Stateless.
 */
final class PromptSegments {

  private static final String REF = "ref";
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private PromptSegments() {}

  /**
   * The new messages as ranges of the base's and messages of their own: each message is looked up
   * in the base after the end of the last range, and a range grows while both lists agree.
   */
  static ArrayNode diff(JsonNode base, JsonNode messages) {
    Map<JsonNode, List<Integer>> positions = new HashMap<>();
    for (int i = 0; i < base.size(); i++) {
      positions.computeIfAbsent(base.get(i), key -> new ArrayList<>()).add(i);
    }
    ArrayNode segments = NODES.arrayNode();
    int afterLastRange = 0;
    int i = 0;
    while (i < messages.size()) {
      int from = firstAtOrAfter(positions.get(messages.get(i)), afterLastRange);
      if (from < 0) {
        segments.add(messages.get(i++));
        continue;
      }
      int to = from;
      while (i < messages.size() && to < base.size() && base.get(to).equals(messages.get(i))) {
        to++;
        i++;
      }
      segments.addObject().putArray(REF).add(from).add(to);
      afterLastRange = to;
    }
    return segments;
  }

  /** The messages of a prompt with no base: each its own segment. */
  static ArrayNode literal(JsonNode messages) {
    ArrayNode segments = NODES.arrayNode();
    messages.forEach(segments::add);
    return segments;
  }

  /** The messages the segments stand for, given the whole base. */
  static JsonNode apply(JsonNode base, JsonNode segments) {
    ArrayNode messages = NODES.arrayNode();
    for (JsonNode segment : segments) {
      if (isRange(segment)) {
        for (int i = rangeStart(segment); i < rangeStart(segment) + length(segment); i++) {
          messages.add(base.get(i));
        }
      } else {
        messages.add(segment);
      }
    }
    return messages;
  }

  static boolean isRange(JsonNode segment) {
    return segment.has(REF) && !segment.has("role");
  }

  /** Where a range starts in the base's messages. */
  static int rangeStart(JsonNode range) {
    return range.get(REF).get(0).asInt();
  }

  /** How many messages a segment stands for. */
  static int length(JsonNode segment) {
    return isRange(segment) ? segment.get(REF).get(1).asInt() - rangeStart(segment) : 1;
  }

  private static int firstAtOrAfter(List<Integer> positions, int start) {
    if (positions != null) {
      for (int position : positions) {
        if (position >= start) {
          return position;
        }
      }
    }
    return -1;
  }
}
