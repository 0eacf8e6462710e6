package dev.agentloop.internal.resilience;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A tool call reduced to what makes it the same call: the tool and its arguments with object keys
 * sorted, numbers in one notation ({@code 1} = {@code 1.0}), runs of whitespace in text as one space
 * and no leading or trailing whitespace, and text in lower case for tools that ignore case. Arrays
 * keep their order. Arguments that are no JSON object are compared as written, whitespace normalised.
 */
public final class CallSignature {

  private static final Pattern WHITESPACE = Pattern.compile("\\s+");

  private CallSignature() {}

  /**
   * @param arguments the arguments object, or {@code null} when the model's arguments were no JSON object
   * @param rawArguments what the model wrote when the arguments were no JSON object
   */
  public static String of(String tool, JsonNode arguments, String rawArguments, boolean ignoreCase) {
    StringBuilder signature = new StringBuilder(tool).append('(');
    if (arguments != null) {
      append(signature, arguments, ignoreCase);
    } else {
      signature.append('\'').append(text(rawArguments == null ? "" : rawArguments, ignoreCase)).append('\'');
    }
    return signature.append(')').toString();
  }

  private static void append(StringBuilder out, JsonNode node, boolean ignoreCase) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> fields = new ArrayList<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        fields.add(it.next());
      }
      fields.sort(Map.Entry.comparingByKey());
      out.append('{');
      for (int i = 0; i < fields.size(); i++) {
        out.append(i == 0 ? "" : ",").append(quoted(fields.get(i).getKey())).append(':');
        append(out, fields.get(i).getValue(), ignoreCase);
      }
      out.append('}');
    } else if (node.isArray()) {
      out.append('[');
      for (int i = 0; i < node.size(); i++) {
        out.append(i == 0 ? "" : ",");
        append(out, node.get(i), ignoreCase);
      }
      out.append(']');
    } else if (node.isTextual()) {
      out.append(quoted(text(node.asText(), ignoreCase)));
    } else if (node.isNumber()) {
      BigDecimal number = node.decimalValue().stripTrailingZeros();
      out.append(number.signum() == 0 ? "0" : number.toPlainString());
    } else {
      out.append(node.asText());
    }
  }

  private static String text(String value, boolean ignoreCase) {
    String text = WHITESPACE.matcher(value.strip()).replaceAll(" ");
    return ignoreCase ? text.toLowerCase(Locale.ROOT) : text;
  }

  private static String quoted(String text) {
    return '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }
}
