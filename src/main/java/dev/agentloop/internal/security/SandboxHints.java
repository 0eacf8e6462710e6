package dev.agentloop.internal.security;

import java.util.Map;

/**
 * Why an element or attribute that {@link SandboxRules} does not list is refused, and what an analyst may use instead,
 * for the ones people reach for; the rest get a general sentence. The words only: what is allowed is the rules'.
 */
final class SandboxHints {

  private static final String SERVICE_TASK = "an analyst's service task is one of AgentLoop's: camunda:type=\"external\""
      + " on an agentloop.* topic (templates Agent: plan, think, act, call a remote tool); what code would do, a tool"
      + " of the application does, allowed on think";
  private static final String AS_EXPRESSION = "write the value as an expression on the run's variables, e.g."
      + " ${question}";

  /** Name as the sandbox prints it ({@code camunda:class}, {@code scriptTask}) → why it is refused, what instead. */
  private static final Map<String, String[]> HINTS = Map.ofEntries(
      Map.entry("scriptTask", hint("runs a script", "what a script would compute, a tool of the application computes:"
          + " allow it on think")),
      Map.entry("businessRuleTask", hint("evaluates a decision (DMN) with expressions and scripts of its own",
          "route with a gateway whose conditions read the run's variables, e.g. ${route == 'done'}")),
      Map.entry("signalEventDefinition", hint("reaches every process of the engine, the application's too",
          "use a message or an error inside the agent")),
      Map.entry("camunda:executionListener", hint("runs code when the element starts or ends",
          "AgentLoop's own listeners come with its templates and need nothing in the diagram: remove it")),
      Map.entry("camunda:taskListener", hint("runs code on a task's events (create, assignment, completion)",
          "say who reviews with camunda:candidateGroups; AgentLoop's reviews need no listener in the diagram")),
      Map.entry("camunda:connector", hint("calls another system from the engine",
          "give the agent a tool of the application that does it, and allow it on think")),
      Map.entry("camunda:script", hint("runs a script", AS_EXPRESSION)),
      Map.entry("camunda:resource", hint("loads a script or a value from a file", AS_EXPRESSION)),
      Map.entry("language", hint("makes it a script", "write it as an expression, e.g. ${route == 'done'}")),
      Map.entry("camunda:formData", hint("is a generated form, whose fields may run validators of the application",
          "AgentLoop's reviews bring their forms (camunda:formRef, set by the review templates)")),
      Map.entry("camunda:formProperty", hint("is a generated form field", "AgentLoop's reviews bring their forms")),
      Map.entry("camunda:formKey", hint("names a form that may hold scripts (an embedded HTML form)",
          "camunda:formRef with one of AgentLoop's forms (the review templates set it)")),
      Map.entry("camunda:formHandlerClass", hint("runs Java code of the application", "AgentLoop's reviews bring"
          + " their forms")),
      Map.entry("camunda:class", hint("runs Java code of the application", SERVICE_TASK)),
      Map.entry("camunda:delegateExpression", hint("runs a bean of the application", SERVICE_TASK)),
      Map.entry("camunda:expression", hint("runs an expression for its effects", SERVICE_TASK)),
      Map.entry("camunda:resultVariable", hint("stores what code returned", SERVICE_TASK)),
      Map.entry("camunda:variableMappingClass", hint("runs Java code to hand variables across the call",
          "name them with camunda:in and camunda:out (source, target)")),
      Map.entry("camunda:variableMappingDelegateExpression", hint("runs a bean to hand variables across the call",
          "name them with camunda:in and camunda:out (source, target)")),
      Map.entry("variables", hint("hands every variable across the call",
          "name each with source and target, as the template Agent: call an agent does")),
      Map.entry("camunda:errorEventDefinition", hint("evaluates an expression on every result of an external task",
          "catch AgentLoop's escapes with boundary error events, as react-agent.bpmn does")),
      Map.entry("camunda:calledElementVersion", hint("binds an agent at a fixed version", "call the latest version")),
      Map.entry("camunda:calledElementVersionTag", hint("binds an agent at a version tag", "call the latest version")),
      Map.entry("camunda:calledElementTenantId", hint("calls an agent of another tenant", "call the agents of yours")),
      Map.entry("camunda:caseRef", hint("starts a case (CMMN), which is no agent", "call agents with ${tool}")));

  private SandboxHints() {}

  /** Why it is refused: what it does. */
  static String why(String name) {
    String[] hint = HINTS.get(name);
    return hint != null ? hint[0] : "is none of what an analyst's diagram may hold";
  }

  /** What to use instead, or {@code otherwise} where nothing particular is known of it. */
  static String instead(String name, String otherwise) {
    String[] hint = HINTS.get(name);
    return hint != null ? hint[1] : otherwise;
  }

  /** For an element no rule names. */
  static final String GENERAL = "an agent is drawn with AgentLoop's tasks (the element templates), call"
      + " activities that ask agents, gateways, events, timers, errors, messages, sub-processes and sequence flows";

  private static String[] hint(String why, String instead) {
    return new String[] {why, instead};
  }
}
