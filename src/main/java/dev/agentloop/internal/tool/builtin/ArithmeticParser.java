package dev.agentloop.internal.tool.builtin;

import dev.agentloop.spi.ToolException;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A recursive-descent parser for arithmetic: numbers, + - * / % ^, parentheses, unary minus and
 * sqrt/abs. No script engine, no identifiers, bounded nesting: it can compute, nothing else.
 * Addition, subtraction, multiplication, remainders and whole powers are exact; division and square
 * roots keep 34 significant digits. A result longer than {@value #MAX_DIGITS} digits is refused.
 * Not thread-safe; create one per expression.
 */
final class ArithmeticParser {

  static final int MAX_DIGITS = 1_000;
  private static final MathContext DIVISION = MathContext.DECIMAL128;
  private static final int MAX_DEPTH = 64;
  private static final int MAX_EXPONENT = 10_000;

  private final String text;
  private int pos;
  private int depth;

  private ArithmeticParser(String text) {
    this.text = text;
  }

  static BigDecimal evaluate(String expression) throws ToolException {
    ArithmeticParser parser = new ArithmeticParser(expression);
    BigDecimal value = parser.sum();
    parser.skipSpaces();
    if (parser.pos < expression.length()) {
      throw parser.error("unexpected '" + expression.charAt(parser.pos) + "'");
    }
    return value;
  }

  private BigDecimal sum() throws ToolException {
    BigDecimal value = product();
    while (true) {
      if (take('+')) {
        value = bounded(value.add(product()));
      } else if (take('-')) {
        value = bounded(value.subtract(product()));
      } else {
        return value;
      }
    }
  }

  private BigDecimal product() throws ToolException {
    BigDecimal value = power();
    while (true) {
      if (take('*')) {
        value = bounded(value.multiply(power()));
      } else if (take('/')) {
        value = bounded(value.divide(nonZero(power()), DIVISION));
      } else if (take('%')) {
        value = bounded(value.remainder(nonZero(power())));
      } else {
        return value;
      }
    }
  }

  private BigDecimal power() throws ToolException {
    BigDecimal base = unary();
    if (!take('^')) {
      return base;
    }
    int n = wholeExponent(power());
    // the result has at most n times the digits of the base: refuse early what cannot fit
    if ((long) Math.abs(n) * digits(base) > 10L * MAX_DIGITS) {
      throw error("the result is too large (more than " + MAX_DIGITS + " digits)");
    }
    BigDecimal magnitude = bounded(base.pow(Math.abs(n)));
    return n >= 0 ? magnitude : bounded(BigDecimal.ONE.divide(nonZero(magnitude), DIVISION));
  }

  private int wholeExponent(BigDecimal exponent) throws ToolException {
    if (exponent.stripTrailingZeros().scale() > 0) {
      throw error("only whole-number exponents are supported");
    }
    if (exponent.abs().compareTo(BigDecimal.valueOf(MAX_EXPONENT)) > 0) {
      throw error("exponent " + exponent.toPlainString() + " is too large");
    }
    return exponent.intValueExact();
  }

  private BigDecimal bounded(BigDecimal value) throws ToolException {
    if (digits(value) > MAX_DIGITS) {
      throw error("the result is too large (more than " + MAX_DIGITS + " digits)");
    }
    return value;
  }

  /** How many digits the value has when written out in full. */
  private static long digits(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    long precision = stripped.precision();
    long scale = stripped.scale();
    return scale <= 0 ? precision - scale : Math.max(precision, scale);
  }

  private BigDecimal unary() throws ToolException {
    if (take('-')) {
      return unary().negate();
    }
    if (take('+')) {
      return unary();
    }
    return primary();
  }

  private BigDecimal primary() throws ToolException {
    if (++depth > MAX_DEPTH) {
      throw error("expression is nested too deeply");
    }
    try {
      if (take('(')) {
        BigDecimal value = sum();
        expect(')');
        return value;
      }
      if (word("sqrt")) {
        BigDecimal value = parenthesised();
        if (value.signum() < 0) {
          throw error("square root of a negative number");
        }
        return value.sqrt(DIVISION);
      }
      if (word("abs")) {
        return parenthesised().abs();
      }
      return number();
    } finally {
      depth--;
    }
  }

  private BigDecimal parenthesised() throws ToolException {
    expect('(');
    BigDecimal value = sum();
    expect(')');
    return value;
  }

  private BigDecimal number() throws ToolException {
    skipSpaces();
    int start = pos;
    while (pos < text.length() && (Character.isDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
      pos++;
    }
    if (start == pos) {
      throw error(pos < text.length() ? "unexpected '" + text.charAt(pos) + "'" : "unexpected end of expression");
    }
    try {
      return new BigDecimal(text.substring(start, pos));
    } catch (NumberFormatException e) {
      throw error("'" + text.substring(start, pos) + "' is not a number");
    }
  }

  private BigDecimal nonZero(BigDecimal value) throws ToolException {
    if (value.signum() == 0) {
      throw error("division by zero");
    }
    return value;
  }

  private boolean word(String name) {
    skipSpaces();
    if (text.startsWith(name, pos)) {
      pos += name.length();
      return true;
    }
    return false;
  }

  private boolean take(char c) {
    skipSpaces();
    if (pos < text.length() && text.charAt(pos) == c) {
      pos++;
      return true;
    }
    return false;
  }

  private void expect(char c) throws ToolException {
    if (!take(c)) {
      throw error("expected '" + c + "'");
    }
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private ToolException error(String problem) {
    return new ToolException("cannot evaluate '" + text + "': " + problem + " at position " + (pos + 1));
  }
}
