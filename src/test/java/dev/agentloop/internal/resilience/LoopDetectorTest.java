package dev.agentloop.internal.resilience;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.resilience.LoopDetector.Call;
import dev.agentloop.internal.resilience.LoopDetector.Level;
import dev.agentloop.internal.resilience.LoopDetector.Limits;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LoopDetectorTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Limits LIMITS = new Limits(3, 2, 3);

  private final LoopDetector detector = new LoopDetector(20, 3);

  @Test
  void should_warn_at_the_third_same_call_and_find_a_loop_at_the_fourth() {
    List<Call> calls = new ArrayList<>(List.of(call("search", "{\"q\": \"x\"}"), call("search", "{\"q\": \"x\"}")));
    assertThat(detector.check(calls, LIMITS).level()).isEqualTo(Level.NONE);

    calls.add(call("search", "{\"q\": \"x\"}"));
    LoopDetector.Verdict warning = detector.check(calls, LIMITS);
    assertThat(warning.level()).isEqualTo(Level.WARNING);
    assertThat(warning.pattern()).isEqualTo("repeat");
    assertThat(warning.finding()).isEqualTo("the same call search {\"q\":\"x\"} was made 3 times");

    calls.add(call("search", "{\"q\": \"x\"}"));
    assertThat(detector.check(calls, LIMITS).level()).isEqualTo(Level.LOOP);
  }

  @Test
  void should_see_through_cosmetic_changes_of_the_arguments() {
    // key order, whitespace around and inside text, number notation, case for a tool that ignores it
    List<Call> calls = List.of(
        call("lookup", "{\"city\": \"Berlin\", \"days\": 3, \"tags\": [\"a\", \"b\"]}", true),
        call("lookup", "{\"tags\":[\"a\",\"b\"],\"days\":3.0,\"city\":\"  berlin \"}", true),
        call("lookup", "{ \"days\" : 3.00 , \"city\" : \"BERLIN\" , \"tags\" : [ \"a\" , \"b\" ] }", true),
        call("lookup", "{\"city\":\"Berlin\",\"tags\":[\"a\",\"b\"],\"days\":3}", true));

    assertThat(detector.check(calls, LIMITS).level()).isEqualTo(Level.LOOP);
  }

  @Test
  void should_keep_case_and_array_order_for_tools_that_care() {
    List<Call> calls = List.of(
        call("read_document", "{\"name\": \"Policy.md\"}"),
        call("read_document", "{\"name\": \"policy.md\"}"),
        call("read_document", "{\"name\": \"POLICY.md\"}"),
        call("sort", "{\"items\": [1, 2]}"),
        call("sort", "{\"items\": [2, 1]}"));

    assertThat(detector.check(calls, LIMITS)).isEqualTo(LoopDetector.Verdict.NONE);
  }

  @Test
  void should_find_a_to_b_alternation_warn_after_two_rounds_and_loop_when_it_goes_on() {
    Call a = call("fetch", "{\"url\": \"https://a.example\"}");
    Call b = call("parse", "{\"format\": \"html\"}");

    assertThat(detector.check(List.of(a, b, a), LIMITS).level()).isEqualTo(Level.NONE);
    LoopDetector.Verdict warning = detector.check(List.of(a, b, a, b), LIMITS);
    assertThat(warning.level()).isEqualTo(Level.WARNING);
    assertThat(warning.pattern()).isEqualTo("cycle");
    assertThat(warning.finding()).startsWith("the calls fetch {\"url\":\"https://a.example\"} → parse {\"format\":\"html\"}")
        .endsWith("were made in this order 2 times in a row");
    assertThat(detector.check(List.of(a, b, a, b, a), LIMITS).level()).isEqualTo(Level.LOOP);
  }

  @Test
  void should_find_a_cycle_of_three_different_calls() {
    Call a = call("a", "{}");
    Call b = call("b", "{}");
    Call c = call("c", "{}");

    assertThat(detector.check(List.of(a, b, c, a, b), LIMITS).level()).isEqualTo(Level.NONE);
    assertThat(detector.check(List.of(a, b, c, a, b, c), LIMITS).level()).isEqualTo(Level.WARNING);
    LoopDetector.Verdict loop = detector.check(List.of(a, b, c, a, b, c, a), LIMITS);
    assertThat(loop.level()).isEqualTo(Level.LOOP);
    assertThat(loop.pattern()).isEqualTo("cycle");
  }

  @Test
  void should_not_mistake_paging_for_a_loop() {
    List<Call> pages = IntStream.rangeClosed(1, 40)
        .mapToObj(page -> call("list_orders", "{\"status\": \"open\", \"page\": " + page + "}")).toList();
    List<Call> pagingWithNotes = new ArrayList<>();
    IntStream.rangeClosed(1, 12).forEach(page -> {
      pagingWithNotes.add(call("list_orders", "{\"page\": " + page + "}"));
      pagingWithNotes.add(call("summarize", "{\"page\": " + page + "}"));
    });

    assertThat(detector.check(pages, LIMITS)).isEqualTo(LoopDetector.Verdict.NONE);
    assertThat(detector.check(pagingWithNotes, LIMITS)).isEqualTo(LoopDetector.Verdict.NONE);
  }

  @Test
  void should_find_the_same_failure_again_and_again_whatever_the_arguments() {
    List<Call> calls = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      calls.add(new Call("calculator", "calculator(" + i + "/0)", "calculator " + i + "/0", "Division by zero"));
    }
    LoopDetector.Verdict warning = detector.check(calls, LIMITS);
    assertThat(warning.level()).isEqualTo(Level.WARNING);
    assertThat(warning.finding()).isEqualTo("'calculator' failed 3 times with the same error: Division by zero");

    calls.add(new Call("calculator", "calculator(4/0)", "calculator 4/0", "division  by zero "));
    assertThat(detector.check(calls, LIMITS).level()).isEqualTo(Level.LOOP);
  }

  @Test
  void should_only_look_at_the_latest_calls_of_its_window() {
    List<Call> calls = new ArrayList<>();
    IntStream.range(0, 3).forEach(i -> calls.add(call("search", "{\"q\": \"x\"}")));
    IntStream.range(0, 20).forEach(i -> calls.add(call("read", "{\"page\": " + i + "}")));

    assertThat(detector.check(calls, LIMITS)).isEqualTo(LoopDetector.Verdict.NONE);
    assertThat(new LoopDetector(30, 3).check(calls, LIMITS).level()).isEqualTo(Level.WARNING);
  }

  @Test
  void should_compare_arguments_that_are_no_json_as_written_with_whitespace_normalised() {
    assertThat(CallSignature.of("calc", null, "{expression:  1 + 1", false))
        .isEqualTo(CallSignature.of("calc", null, " {expression: 1 +   1 ", false))
        .isEqualTo("calc('{expression: 1 + 1')");
    assertThat(CallSignature.of("calc", json("{\"b\": {\"y\": 1, \"x\": null}, \"a\": true}"), null, false))
        .isEqualTo("calc({\"a\":true,\"b\":{\"x\":null,\"y\":1}})");
  }

  @Test
  void should_find_a_cycle_of_seven_different_calls_within_the_window() {
    LoopDetector reaching = new LoopDetector(20, 10);
    List<Call> calls = new ArrayList<>();
    for (int i = 0; i < 14; i++) {
      calls.add(call("calculator", "{\"expression\": \"1 + " + (i % 7) + "\"}"));
    }
    assertThat(reaching.check(calls, LIMITS).level()).isEqualTo(Level.WARNING);

    calls.add(call("calculator", "{\"expression\": \"1 + 0\"}"));
    LoopDetector.Verdict loop = reaching.check(calls, LIMITS);
    assertThat(loop.level()).isEqualTo(Level.LOOP);
    assertThat(loop.pattern()).isEqualTo("cycle");
    assertThat(loop.finding()).endsWith("were made in this order 2 times in a row and begun again");
  }

  @Test
  void should_count_the_same_refused_reply_like_the_same_call() {
    List<Call> calls = new ArrayList<>();
    for (int n = 30; n < 33; n++) {
      calls.add(Call.refusedReply("you called " + n + " tools at once; call at most 16 per turn"));
    }
    LoopDetector.Verdict warning = detector.check(calls, LIMITS);
    assertThat(warning.level()).isEqualTo(Level.WARNING);
    assertThat(warning.finding()).isEqualTo("the model's reply was refused 3 times for the same reason: you called 32"
        + " tools at once; call at most 16 per turn");

    calls.add(Call.refusedReply("your reply was empty; call a tool or give your final answer"));
    assertThat(detector.check(calls, LIMITS).level()).isEqualTo(Level.WARNING);
    calls.add(Call.refusedReply("you called 17 tools at once; call at most 16 per turn"));
    assertThat(detector.check(calls, LIMITS).level()).isEqualTo(Level.LOOP);
  }

  private static Call call(String tool, String arguments) {
    return call(tool, arguments, false);
  }

  private static Call call(String tool, String arguments, boolean ignoreCase) {
    JsonNode parsed = json(arguments);
    String signature = CallSignature.of(tool, parsed, null, ignoreCase);
    return new Call(tool, signature, tool + " " + parsed, null);
  }

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
