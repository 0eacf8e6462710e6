package dev.agentloop.internal.tool.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.spi.ToolException;
import org.junit.jupiter.api.Test;

class CalculatorToolTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final CalculatorTool calculator = new CalculatorTool();

  private String calculate(String expression) throws ToolException {
    JsonNode arguments = JSON.createObjectNode().put("expression", expression);
    return calculator.execute(arguments);
  }

  @Test
  void should_describe_itself_as_calculator_with_object_schema() {
    assertThat(calculator.name()).isEqualTo("calculator");
    assertThat(calculator.sideEffects()).isFalse();
    assertThat(calculator.parameters().path("type").asText()).isEqualTo("object");
    assertThat(calculator.parameters().path("required").get(0).asText()).isEqualTo("expression");
  }

  @Test
  void should_respect_operator_precedence() throws ToolException {
    assertThat(calculate("2+3*4")).isEqualTo("14");
    assertThat(calculate("10 - 4 / 2")).isEqualTo("8");
    assertThat(calculate("10 - 4 - 3")).isEqualTo("3");
  }

  @Test
  void should_evaluate_parentheses_first() throws ToolException {
    assertThat(calculate("(2+3)*4")).isEqualTo("20");
    assertThat(calculate("(17 * 23) + 366")).isEqualTo("757");
    assertThat(calculate("((1 + 2) * (3 + 4))")).isEqualTo("21");
  }

  @Test
  void should_apply_unary_minus_and_plus() throws ToolException {
    assertThat(calculate("-5 + 3")).isEqualTo("-2");
    assertThat(calculate("2 * -3")).isEqualTo("-6");
    assertThat(calculate("--4")).isEqualTo("4");
    assertThat(calculate("+7")).isEqualTo("7");
    assertThat(calculate("-(2 + 3)")).isEqualTo("-5");
  }

  @Test
  void should_raise_to_whole_number_powers_right_associatively() throws ToolException {
    assertThat(calculate("2^10")).isEqualTo("1024");
    assertThat(calculate("2^3^2")).isEqualTo("512");
    assertThat(calculate("5^0")).isEqualTo("1");
  }

  @Test
  void should_raise_to_negative_exponents() throws ToolException {
    assertThat(calculate("2^-1")).isEqualTo("0.5");
    assertThat(calculate("10^-3")).isEqualTo("0.001");
  }

  @Test
  void should_add_decimals_exactly() throws ToolException {
    assertThat(calculate("0.1+0.2")).isEqualTo("0.3");
    assertThat(calculate("1.1 * 1.1")).isEqualTo("1.21");
  }

  @Test
  void should_divide_to_thirty_four_significant_digits() throws ToolException {
    assertThat(calculate("10/4")).isEqualTo("2.5");
    assertThat(calculate("1/3")).isEqualTo("0." + "3".repeat(34));
  }

  @Test
  void should_compute_remainder() throws ToolException {
    assertThat(calculate("7 % 3")).isEqualTo("1");
    assertThat(calculate("5.5 % 2")).isEqualTo("1.5");
    assertThat(calculate("-7 % 3")).isEqualTo("-1");
  }

  @Test
  void should_compute_sqrt_and_abs() throws ToolException {
    assertThat(calculate("sqrt(16)")).isEqualTo("4");
    assertThat(calculate("sqrt(2)")).isEqualTo("1.414213562373095048801688724209698");
    assertThat(calculate("abs(-3.5)")).isEqualTo("3.5");
    assertThat(calculate("abs(2 - 10) + sqrt(9)")).isEqualTo("11");
  }

  @Test
  void should_format_results_without_trailing_zeros_or_exponent() throws ToolException {
    assertThat(calculate("1.50 + 1.50")).isEqualTo("3");
    assertThat(calculate("2.50 * 2")).isEqualTo("5");
    assertThat(calculate("10^20")).isEqualTo("100000000000000000000");
    assertThat(calculate("1000 * 1000")).isEqualTo("1000000");
    assertThat(calculate("10^-7")).isEqualTo("0.0000001");
  }

  @Test
  void should_multiply_large_integers_exactly() throws ToolException {
    assertThat(calculate("123456789 * 987654321")).isEqualTo("121932631112635269");
    assertThat(calculate("99999999999999999 + 1")).isEqualTo("100000000000000000");
  }

  @Test
  void should_refuse_division_by_zero() {
    assertThatThrownBy(() -> calculate("1/0"))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate '1/0': division by zero at position 4");
    assertThatThrownBy(() -> calculate("5 % (2 - 2)"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("division by zero");
    assertThatThrownBy(() -> calculate("0^-1"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("division by zero");
  }

  @Test
  void should_name_an_unexpected_character_and_its_position() {
    assertThatThrownBy(() -> calculate("17 x 23"))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate '17 x 23': unexpected 'x' at position 4");
  }

  @Test
  void should_refuse_identifiers() {
    assertThatThrownBy(() -> calculate("java.lang.System.exit(0)"))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate 'java.lang.System.exit(0)': unexpected 'j' at position 1");
  }

  @Test
  void should_report_a_missing_closing_parenthesis() {
    assertThatThrownBy(() -> calculate("(1+2"))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate '(1+2': expected ')' at position 5");
  }

  @Test
  void should_report_a_surplus_closing_parenthesis() {
    assertThatThrownBy(() -> calculate("1+2)"))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate '1+2)': unexpected ')' at position 4");
  }

  @Test
  void should_report_an_expression_of_only_spaces() {
    assertThatThrownBy(() -> calculate("   "))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate '   ': unexpected end of expression at position 4");
  }

  @Test
  void should_report_a_dangling_operator() {
    assertThatThrownBy(() -> calculate("2 +"))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate '2 +': unexpected end of expression at position 4");
  }

  @Test
  void should_report_a_malformed_number() {
    assertThatThrownBy(() -> calculate("1.2.3"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("'1.2.3' is not a number");
  }

  @Test
  void should_refuse_too_deep_nesting() {
    // given
    String expression = "(".repeat(200) + "1" + ")".repeat(200);

    // when / then
    assertThatThrownBy(() -> calculate(expression))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("expression is nested too deeply at position ");
  }

  @Test
  void should_accept_moderate_nesting() throws ToolException {
    assertThat(calculate("(".repeat(50) + "1+1" + ")".repeat(50))).isEqualTo("2");
  }

  @Test
  void should_refuse_a_huge_exponent() {
    assertThatThrownBy(() -> calculate("2^100000"))
        .isInstanceOf(ToolException.class)
        .hasMessage("cannot evaluate '2^100000': exponent 100000 is too large at position 9");
    assertThatThrownBy(() -> calculate("2^-100000"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("exponent -100000 is too large");
  }

  @Test
  void should_refuse_a_result_too_large_to_write_out() {
    assertThatThrownBy(() -> calculate("(10^10000)^10000"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("too large");
  }

  @Test
  void should_refuse_fractional_exponents() {
    assertThatThrownBy(() -> calculate("2^0.5"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("only whole-number exponents are supported");
  }

  @Test
  void should_refuse_the_square_root_of_a_negative_number() {
    assertThatThrownBy(() -> calculate("sqrt(-4)"))
        .isInstanceOf(ToolException.class)
        .hasMessageContaining("square root of a negative number");
  }
}
