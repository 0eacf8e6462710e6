package dev.agentloop.internal.security;

import dev.agentloop.internal.agent.ProcessVariable;
import dev.agentloop.internal.agent.ReactAgentProcess;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.camunda.bpm.impl.juel.AstBinary;
import org.camunda.bpm.impl.juel.AstBoolean;
import org.camunda.bpm.impl.juel.AstBracket;
import org.camunda.bpm.impl.juel.AstChoice;
import org.camunda.bpm.impl.juel.AstComposite;
import org.camunda.bpm.impl.juel.AstDot;
import org.camunda.bpm.impl.juel.AstEval;
import org.camunda.bpm.impl.juel.AstFunction;
import org.camunda.bpm.impl.juel.AstIdentifier;
import org.camunda.bpm.impl.juel.AstMethod;
import org.camunda.bpm.impl.juel.AstNested;
import org.camunda.bpm.impl.juel.AstNull;
import org.camunda.bpm.impl.juel.AstNumber;
import org.camunda.bpm.impl.juel.AstString;
import org.camunda.bpm.impl.juel.AstText;
import org.camunda.bpm.impl.juel.AstUnary;
import org.camunda.bpm.impl.juel.Builder;
import org.camunda.bpm.impl.juel.Node;
import org.camunda.bpm.impl.juel.TreeBuilderException;

/**
 * The safe form of an expression in an analyst's diagram, as a positive list of what it may be made of: literal text,
 * {@code ${…}} with variables, property access ({@code a.b}, {@code a['b']}, {@code a[0]}), literals (strings, numbers,
 * {@code true}, {@code false}, {@code null}), comparison, boolean and arithmetic operators, {@code empty} and
 * {@code ?:}. Nothing else: no method call, no function, no bean, no object of the engine.
 *
 * <p>The variables are the run's: those AgentLoop documents (every {@link ProcessVariable} of {@link ReactAgentProcess},
 * read from there so that the list never lags behind it) and those the diagram itself names (an element variable, the
 * target of an output mapping, the variables of a caught error…). A name outside that list would reach the engine's
 * own objects ({@code execution}, {@code task}) or the application's beans ({@code environment}), which is how an
 * expression reads a secret or changes who is who. Property access never reaches {@code class} and a computed
 * bracket ({@code a[b]}) is refused, since a variable's value could spell {@code class}: from a plain value, getClass
 * is the only getter that leads out of the run's data. Immutable, thread-safe.
 */
final class SafeExpressions {

  /** The variables of an agent run that AgentLoop sets or reads, by their constants in {@link ReactAgentProcess}. */
  static final Set<String> AGENT_VARIABLES = agentVariables();

  /** Camunda parses expressions with method calls allowed; so does this, to find them. */
  private static final Builder PARSER = new Builder(Builder.Feature.METHOD_INVOCATIONS, Builder.Feature.VARARGS);
  private static final String JVM_CLASS = "class";

  private final Set<String> variables;
  /** Names the diagram declares that are also beans or the engine's objects: where unset, they read those. */
  private final Set<String> shadowing;

  /**
   * @param declared the variables the diagram names itself, beside AgentLoop's
   * @param beans whether a name is a bean of the application or the engine: a variable of that name reads the bean
   *     wherever it is not set (before the element that sets it ran, in another scope), so it may not be read
   */
  SafeExpressions(Set<String> declared, Predicate<String> beans) {
    Set<String> all = new HashSet<>(AGENT_VARIABLES);
    Set<String> shadows = new HashSet<>();
    for (String name : declared) {
      if (AGENT_VARIABLES.contains(name) || !(ENGINE_OBJECTS.contains(name) || beans.test(name))) {
        all.add(name);
      } else {
        shadows.add(name);
      }
    }
    this.variables = Set.copyOf(all);
    this.shadowing = Set.copyOf(shadows);
  }

  /**
   * @return what makes the text unsafe, in words ("calls the method getVariable"), or empty when it is of the safe form
   *     (text without an expression always is)
   */
  Optional<String> problem(String text) {
    if (text == null || !(text.contains("${") || text.contains("#{"))) {
      return Optional.empty();
    }
    try {
      return problem(PARSER.build(text).getRoot());
    } catch (TreeBuilderException e) {
      return Optional.of("is no expression the engine can read (" + e.getMessage() + ")");
    }
  }

  private Optional<String> problem(Node node) {
    if (node instanceof AstText || node instanceof AstString || node instanceof AstNumber
        || node instanceof AstBoolean || node instanceof AstNull) {
      return Optional.empty();
    }
    if (node instanceof AstIdentifier identifier) {
      return variables.contains(identifier.getName()) ? Optional.empty() : Optional.of(unknown(identifier.getName()));
    }
    if (node instanceof AstDot dot && JVM_CLASS.equals(propertyOf(dot))) {
      return Optional.of("reads the property 'class', which leads from a value to the JVM");
    }
    if (node instanceof AstBracket && !(node.getChild(1) instanceof AstString || node.getChild(1) instanceof AstNumber)) {
      return Optional.of("reads a property whose name is computed (a[b]); name it: a.b or a['b']");
    }
    if (node instanceof AstBracket && JVM_CLASS.equals(String.valueOf(((AstString) node.getChild(1)).eval(null, null)))) {
      return Optional.of("reads the property 'class', which leads from a value to the JVM");
    }
    if (node instanceof AstMethod method) {
      return Optional.of("calls the method " + propertyOf(method.getChild(0)) + "(…)");
    }
    if (node instanceof AstFunction function) {
      return Optional.of("calls the function " + function.getName() + "(…)");
    }
    if (!(node instanceof AstEval || node instanceof AstComposite || node instanceof AstNested
        || node instanceof AstDot || node instanceof AstBracket || node instanceof AstBinary
        || node instanceof AstUnary || node instanceof AstChoice)) {
      return Optional.of("uses " + node + ", which is none of variables, properties, literals and operators");
    }
    for (int i = 0; i < node.getCardinality(); i++) {
      Optional<String> problem = problem(node.getChild(i));
      if (problem.isPresent()) {
        return problem;
      }
    }
    return Optional.empty();
  }

  private String unknown(String name) {
    if (shadowing.contains(name)) {
      return "reads '" + name + "', which the diagram sets but which is also " + (ENGINE_OBJECTS.contains(name)
          ? "the engine's own object" : "a bean of the application") + ": wherever the variable is not set, the"
          + " expression reads that instead; give the variable another name";
    }
    return "reads '" + name + "', which is no variable of an agent run (it would reach "
        + (ENGINE_OBJECTS.contains(name) ? "the engine's own object" : "an object of the engine or the application")
        + "); the variables are AgentLoop's (" + String.join(", ", new TreeSet<>(AGENT_VARIABLES))
        + ") and those the diagram names itself";
  }

  /** What the engine's expression resolver hands out besides variables, named as such in a refusal. */
  private static final Set<String> ENGINE_OBJECTS = Set.of("execution", "task", "externalTask", "caseExecution",
      "variableScope", "authenticatedUserId");

  /** The property a {@code .name} or a {@code ['name']} reads; JUEL prints the former as {@code ". name"}. */
  private static String propertyOf(Node property) {
    if (property instanceof AstDot) {
      return property.toString().substring(2);
    }
    return property.getCardinality() > 1 ? property.getChild(1).toString() : property.toString();
  }

  private static Set<String> agentVariables() {
    return Arrays.stream(ReactAgentProcess.class.getFields())
        .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == ProcessVariable.class)
        .map(SafeExpressions::variableName)
        .collect(java.util.stream.Collectors.toUnmodifiableSet());
  }

  private static String variableName(Field field) {
    try {
      return ((ProcessVariable<?>) field.get(null)).name();
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("ReactAgentProcess." + field.getName() + " is public", e);
    }
  }
}
