package dev.agentloop.internal.security;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The positive list of an analyst's diagram: every element it may hold, the attributes each may carry and what their
 * values may be. What is not listed is refused. It lists what AgentLoop's element templates write (external tasks on
 * {@code agentloop.*} topics, AgentLoop's reviews and forms, call activities that ask agents) and what an agent's flow
 * is drawn with (gateways, events, timers, errors, messages, sub-processes, sequence flows, lanes, annotations), plus
 * the diagram's drawing, which runs nothing. Every value the engine evaluates is an {@link Value#EXPRESSION} and must be
 * of the safe form ({@link SafeExpressions}). Immutable.
 */
final class SandboxRules {

  static final String BPMN = "http://www.omg.org/spec/BPMN/20100524/MODEL";
  static final String CAMUNDA = "http://camunda.org/schema/1.0/bpmn";
  static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
  /** The drawing (shapes, edges, colours) and Modeler's notes: nothing of it runs. */
  static final Set<String> DRAWING = Set.of("http://www.omg.org/spec/BPMN/20100524/DI",
      "http://www.omg.org/spec/DD/20100524/DC", "http://www.omg.org/spec/DD/20100524/DI",
      "http://bpmn.io/schema/bpmn/biocolor/1.0", "http://www.omg.org/spec/BPMN/non-normative/color/1.0",
      "http://camunda.org/schema/modeler/1.0");

  /** What an attribute's value (or an element's text) may be. */
  enum Value {
    /** Anything: the engine reads it as a name, an id or a flag, never evaluates it. */
    ANY,
    /** Evaluated by the engine: of the safe form. */
    EXPRESSION,
    /** {@code external}: the task is served by a worker, no code of the application runs. */
    EXTERNAL,
    /** A topic of AgentLoop's, {@code agentloop.*}. */
    AGENT_TOPIC,
    /** {@code ${tool}}: the agent the model called, which AgentLoop checks against the agent's allowed tools. */
    CALLED_AGENT,
    /** {@code latest}, the only binding of a called agent. */
    LATEST,
    /** The caller's business key as Modeler's template writes it, or a safe expression. */
    BUSINESS_KEY,
    /** The id of one of AgentLoop's forms. */
    AGENTLOOP_FORM
  }

  /** The attributes an element may carry ({@code name} or {@code camunda:name}) and what its text may be. */
  record ElementRule(Map<String, Value> attributes, Value text) {}

  /** Modeler writes this for the template binding {@code camunda:in:businessKey}; it reads one value of the caller. */
  static final String CALLERS_BUSINESS_KEY = "#{execution.processBusinessKey}";

  private static final Map<String, ElementRule> BPMN_ELEMENTS = new HashMap<>();
  private static final Map<String, ElementRule> CAMUNDA_ELEMENTS = new HashMap<>();

  private static final List<String> NAMED = List.of("id", "name");
  /**
   * What every flow node may carry; besides Camunda's flags and Modeler's template, BPMN's own defaults, which
   * Camunda's model API writes out and the engine does not act on ({@code startQuantity="1"} …).
   */
  private static final List<String> FLOW_NODE = List.of("id", "name", "default", "camunda:asyncBefore",
      "camunda:asyncAfter", "camunda:exclusive", "camunda:modelerTemplate", "camunda:modelerTemplateVersion",
      "camunda:modelerTemplateIcon", "startQuantity", "completionQuantity", "isForCompensation");

  static {
    bpmn("definitions", List.of("id", "name", "targetNamespace", "exporter", "exporterVersion", "typeLanguage",
        "expressionLanguage"));
    bpmn("process", NAMED, "isExecutable", "camunda:historyTimeToLive", "camunda:versionTag",
        "camunda:isStartableInTasklist", "processType", "isClosed");
    for (String plain : List.of("collaboration", "laneSet", "lane", "childLaneSet", "category", "extensionElements")) {
      bpmn(plain, NAMED);
    }
    bpmn("participant", NAMED, "processRef");
    bpmn("messageFlow", NAMED, "sourceRef", "targetRef");
    for (String text : List.of("flowNodeRef", "incoming", "outgoing", "documentation", "text")) {
      bpmn(text, List.of("id", "textFormat"));
    }
    bpmn("textAnnotation", List.of("id", "textFormat"));
    bpmn("association", NAMED, "sourceRef", "targetRef", "associationDirection");
    bpmn("group", NAMED, "categoryValueRef");
    bpmn("categoryValue", List.of("id", "value"));
    bpmn("sequenceFlow", NAMED, "sourceRef", "targetRef", "isImmediate");
    for (String expression : List.of("conditionExpression", "condition", "timeDuration", "timeDate", "timeCycle",
        "loopCardinality", "completionCondition")) {
      element(BPMN_ELEMENTS, expression, List.of("id", "xsi:type"), Value.EXPRESSION);
    }
    bpmn("startEvent", FLOW_NODE, "isInterrupting", "parallelMultiple", "camunda:initiator");
    attribute("startEvent", "camunda:formRef", Value.AGENTLOOP_FORM);
    bpmn("startEvent", FLOW_NODE, "camunda:formRefBinding", "camunda:formRefVersion");
    for (String event : List.of("endEvent", "intermediateCatchEvent", "intermediateThrowEvent")) {
      bpmn(event, FLOW_NODE, "parallelMultiple");
    }
    bpmn("boundaryEvent", FLOW_NODE, "attachedToRef", "cancelActivity", "parallelMultiple");
    bpmn("timerEventDefinition", List.of("id"));
    bpmn("terminateEventDefinition", List.of("id"));
    bpmn("linkEventDefinition", NAMED);
    bpmn("messageEventDefinition", List.of("id", "messageRef"));
    bpmn("errorEventDefinition", List.of("id", "errorRef", "camunda:errorCodeVariable",
        "camunda:errorMessageVariable"));
    bpmn("escalationEventDefinition", List.of("id", "escalationRef", "camunda:escalationCodeVariable"));
    bpmn("conditionalEventDefinition", List.of("id", "camunda:variableName", "camunda:variableEvents"));
    bpmn("error", NAMED, "errorCode");
    attribute("error", "camunda:errorMessage", Value.EXPRESSION);
    bpmn("escalation", NAMED, "escalationCode");
    bpmn("message", List.of("id"));
    attribute("message", "name", Value.EXPRESSION);
    for (String gateway : List.of("exclusiveGateway", "inclusiveGateway", "parallelGateway")) {
      bpmn(gateway, FLOW_NODE, "gatewayDirection");
    }
    bpmn("eventBasedGateway", FLOW_NODE, "gatewayDirection", "eventGatewayType", "instantiate");
    bpmn("subProcess", FLOW_NODE, "triggeredByEvent");
    // implementation: BPMN's default, ##WebService; a web service would need an operationRef, which is not listed
    bpmn("serviceTask", FLOW_NODE, "implementation");
    attribute("serviceTask", "camunda:type", Value.EXTERNAL);
    attribute("serviceTask", "camunda:topic", Value.AGENT_TOPIC);
    attribute("serviceTask", "camunda:taskPriority", Value.EXPRESSION);
    bpmn("userTask", FLOW_NODE, "camunda:formRefBinding", "camunda:formRefVersion", "implementation");
    attribute("userTask", "camunda:formRef", Value.AGENTLOOP_FORM);
    for (String assignment : List.of("camunda:candidateGroups", "camunda:candidateUsers", "camunda:assignee",
        "camunda:dueDate", "camunda:followUpDate", "camunda:priority")) {
      attribute("userTask", assignment, Value.EXPRESSION);
    }
    bpmn("callActivity", FLOW_NODE);
    attribute("callActivity", "calledElement", Value.CALLED_AGENT);
    attribute("callActivity", "camunda:calledElementBinding", Value.LATEST);
    bpmn("multiInstanceLoopCharacteristics", List.of("id", "isSequential", "behavior", "camunda:elementVariable",
        "camunda:asyncBefore", "camunda:asyncAfter", "camunda:exclusive"));
    attribute("multiInstanceLoopCharacteristics", "camunda:collection", Value.EXPRESSION);

    element(CAMUNDA_ELEMENTS, "properties", List.of(), Value.ANY);
    element(CAMUNDA_ELEMENTS, "property", List.of("id", "name", "value"), Value.ANY);
    element(CAMUNDA_ELEMENTS, "field", List.of("name", "stringValue"), Value.ANY);
    element(CAMUNDA_ELEMENTS, "string", List.of(), Value.ANY);
    element(CAMUNDA_ELEMENTS, "in", List.of("source", "target", "local"), Value.ANY);
    CAMUNDA_ELEMENTS.get("in").attributes().put("sourceExpression", Value.EXPRESSION);
    CAMUNDA_ELEMENTS.get("in").attributes().put("businessKey", Value.BUSINESS_KEY);
    element(CAMUNDA_ELEMENTS, "out", List.of("source", "target", "local"), Value.ANY);
    CAMUNDA_ELEMENTS.get("out").attributes().put("sourceExpression", Value.EXPRESSION);
    element(CAMUNDA_ELEMENTS, "inputOutput", List.of(), Value.ANY);
    element(CAMUNDA_ELEMENTS, "inputParameter", List.of("name"), Value.EXPRESSION);
    element(CAMUNDA_ELEMENTS, "outputParameter", List.of("name"), Value.EXPRESSION);
    element(CAMUNDA_ELEMENTS, "list", List.of(), Value.ANY);
    element(CAMUNDA_ELEMENTS, "map", List.of(), Value.ANY);
    element(CAMUNDA_ELEMENTS, "value", List.of(), Value.EXPRESSION);
    element(CAMUNDA_ELEMENTS, "entry", List.of("key"), Value.EXPRESSION);
    element(CAMUNDA_ELEMENTS, "failedJobRetryTimeCycle", List.of(), Value.EXPRESSION);
    // built once, read only from here on
    BPMN_ELEMENTS.replaceAll((name, rule) -> new ElementRule(Map.copyOf(rule.attributes()), rule.text()));
    CAMUNDA_ELEMENTS.replaceAll((name, rule) -> new ElementRule(Map.copyOf(rule.attributes()), rule.text()));
  }

  private SandboxRules() {}

  /** The rule of an element of the BPMN or the Camunda namespace; empty for one an analyst's diagram may not hold. */
  static Optional<ElementRule> of(String namespace, String localName) {
    Map<String, ElementRule> rules = BPMN.equals(namespace) ? BPMN_ELEMENTS
        : CAMUNDA.equals(namespace) ? CAMUNDA_ELEMENTS : Map.of();
    return Optional.ofNullable(rules.get(localName));
  }

  /** The attributes that name a variable the diagram sets, which its expressions may read. */
  static final Set<String> DECLARING = Set.of("camunda:elementVariable", "camunda:errorCodeVariable",
      "camunda:errorMessageVariable", "camunda:escalationCodeVariable", "camunda:initiator", "camunda:variableName");

  private static void bpmn(String localName, List<String> base, String... more) {
    element(BPMN_ELEMENTS, localName, base, Value.ANY);
    for (String attribute : more) {
      BPMN_ELEMENTS.get(localName).attributes().put(attribute, Value.ANY);
    }
  }

  private static void attribute(String bpmnElement, String attribute, Value value) {
    BPMN_ELEMENTS.get(bpmnElement).attributes().put(attribute, value);
  }

  private static void element(Map<String, ElementRule> rules, String localName, List<String> attributes, Value text) {
    ElementRule rule = rules.computeIfAbsent(localName, name -> new ElementRule(new HashMap<>(), text));
    attributes.forEach(attribute -> rule.attributes().putIfAbsent(attribute, Value.ANY));
  }
}
