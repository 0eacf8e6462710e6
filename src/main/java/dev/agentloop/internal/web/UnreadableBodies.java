package dev.agentloop.internal.web;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.springframework.core.MethodParameter;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;

/**
 * What was wrong with a request body that could not be read, in words: the unknown field by name, the
 * field whose value has the wrong type, the field whose value AgentLoop's own check refused (with its words), or
 * where the JSON breaks, each with the endpoint's own example.
 */
final class UnreadableBodies {

  /** One example body per request type, as the API reference shows them. */
  private static final Map<Class<?>, String> EXAMPLES = Map.of(
      StartRunRequest.class, "{\"question\": \"What is 17 * 23?\", \"agent\": \"react-agent\"}",
      ResumeRequests.Edit.class,
      "{\"content\": {\"text\": \"Use the 2025 price list.\"}, \"reason\": \"outdated source\", \"baseVersion\": 7}",
      ResumeRequests.Reason.class, "{\"reason\": \"the tool was down\"}",
      ResumeRequests.Restart.class, "{\"fromStep\": 3, \"reason\": \"try with the new tool\"}",
      Map.class, "{\"decision\": \"accept\"}");

  private UnreadableBodies() {}

  static String detail(HttpMessageNotReadableException e, WebRequest request) {
    Optional<Class<?>> bodyType = bodyType(request);
    String example = bodyType.map(EXAMPLES::get).map(body -> "; send e.g. " + body).orElse("");
    Throwable cause = e.getCause();
    if (cause instanceof UnrecognizedPropertyException unknown) {
      String known = unknown.getKnownPropertyIds().stream().map(String::valueOf).sorted()
          .collect(Collectors.joining(", "));
      return "unknown field \"" + unknown.getPropertyName() + "\"" + where(unknown, 1) + ": this endpoint takes "
          + known + example;
    }
    if (cause instanceof MismatchedInputException mismatch && !mismatch.getPath().isEmpty()) {
      return "field \"" + path(mismatch) + "\" cannot be read as " + typeName(mismatch.getTargetType()) + example;
    }
    if (cause instanceof ValueInstantiationException refused && refused.getCause() instanceof IllegalArgumentException why
        && isOurs(refused.getType().getRawClass())) {
      // AgentLoop's request records check their values in their constructors, in words written for the caller
      return (refused.getPath().isEmpty() ? "the body is refused: " : "field \"" + path(refused) + "\" is refused: ")
          + why.getMessage() + example;
    }
    if (cause instanceof JsonParseException parse) {
      return "the body is not valid JSON at line " + parse.getLocation().getLineNr() + ", column "
          + parse.getLocation().getColumnNr() + ": " + inWords(parse.getOriginalMessage()) + example;
    }
    if (cause instanceof MismatchedInputException mismatch) {
      return (mismatch.getOriginalMessage().startsWith("No content") ? "the body is empty" : "the body must be a JSON object")
          + example;
    }
    if (cause == null && e.getMessage() != null && e.getMessage().startsWith("Required request body is missing")) {
      return "the body is missing" + example;
    }
    return "the body could not be read" + (cause == null ? "" : " (" + cause.getClass().getSimpleName() + ")")
        + example;
  }

  /** Whether the type is one of AgentLoop's, whose checks' messages are for the caller (a positive list: no other's). */
  private static boolean isOurs(Class<?> type) {
    return type.getName().startsWith("dev.agentloop.");
  }

  /** The request body's type of the controller method the request was mapped to. */
  private static Optional<Class<?>> bodyType(WebRequest request) {
    if (!(request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE, RequestAttributes.SCOPE_REQUEST)
        instanceof HandlerMethod handler)) {
      return Optional.empty();
    }
    return Arrays.stream(handler.getMethodParameters())
        .filter(parameter -> parameter.hasParameterAnnotation(RequestBody.class))
        .<Class<?>>map(MethodParameter::getParameterType)
        .findFirst();
  }

  private static String where(JsonMappingException e, int skipLast) {
    var path = e.getPath();
    if (path.size() <= skipLast) {
      return "";
    }
    return " in \"" + path.subList(0, path.size() - skipLast).stream().map(UnreadableBodies::name)
        .collect(Collectors.joining(".")) + "\"";
  }

  private static String path(JsonMappingException e) {
    return e.getPath().stream().map(UnreadableBodies::name).collect(Collectors.joining("."));
  }

  private static String name(JsonMappingException.Reference reference) {
    return reference.getFieldName() != null ? reference.getFieldName() : "[" + reference.getIndex() + "]";
  }

  private static String typeName(Class<?> type) {
    if (type == null) {
      return "the expected type";
    }
    if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
      return "a whole number";
    }
    if (Number.class.isAssignableFrom(type)) {
      return "a number";
    }
    if (type == String.class) {
      return "a string";
    }
    if (type == Boolean.class || type == boolean.class) {
      return "true or false";
    }
    return "a JSON " + (type.isArray() || Iterable.class.isAssignableFrom(type) ? "array" : "object");
  }

  /**
   * The parser's message without its internals: "Unrecognized token 'question': was expecting (JSON String, …)"
   * reads "unrecognized token 'question'", and character codes are left out.
   */
  static String inWords(String parserMessage) {
    String words = parserMessage == null ? "" : parserMessage;
    int expecting = words.indexOf(": was expecting");
    words = (expecting < 0 ? words : words.substring(0, expecting)).replaceAll("\\s*\\(code -?\\d+\\)", "").strip();
    return words.isEmpty() ? "unreadable" : Character.toLowerCase(words.charAt(0)) + words.substring(1);
  }
}
