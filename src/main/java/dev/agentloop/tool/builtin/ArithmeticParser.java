package dev.agentloop.tool.builtin;

import dev.agentloop.tool.ToolException;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * A recursive-descent parser for arithmetic: numbers, + - * / % ^, parentheses, unary minus and
 * sqrt/abs. No script engine, no identifiers, bounded nesting: it can compute, nothing else.
 * Not thread-safe; create one per expression.
 */
final class ArithmeticParser {

  private static final MathContext PRECISION = MathContext.DECIMAL64;
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
        value = value.add(product(), PRECISION);
      } else if (take('-')) {
        value = value.subtract(product(), PRECISION);
      } else {
        return value;
      }
    }
  }

  private BigDecimal product() throws ToolException {
    BigDecimal value = power();
    while (true) {
      if (take('*')) {
        value = value.multiply(power(), PRECISION);
      } else if (take('/')) {
        value = value.divide(nonZero(power()), PRECISION);
      } else if (take('%')) {
        value = value.remainder(nonZero(power()), PRECISION);
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
    BigDecimal exponent = power();
    try {
      int n = exponent.intValueExact();
      if (Math.abs(n) > MAX_EXPONENT) {
        throw error("exponent " + n + " is too large");
      }
      return n >= 0 ? base.pow(n, PRECISION) : BigDecimal.ONE.divide(nonZero(base).pow(-n, PRECISION), PRECISION);
    } catch (ArithmeticException e) {
      throw error("only whole-number exponents are supported");
    }
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
        return value.sqrt(PRECISION);
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
