package dev.agentloop.internal.security;

import dev.agentloop.internal.agent.ReactAgentProcess;
import dev.agentloop.internal.security.SandboxRules.ElementRule;
import dev.agentloop.internal.security.SandboxRules.Value;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import org.w3c.dom.Attr;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

/**
 * Checks a diagram against what an analyst may deploy ({@link SandboxRules}, {@link SafeExpressions}) and names every
 * problem of the file at once: the element by its type and id, the attribute or part, and what to use instead. It
 * reads the XML itself ({@link DiagramXml}) rather than the engine's model, so that nothing the engine would skip or
 * default goes unseen; a file it cannot read is refused. Thread-safe (immutable).
 */
final class DiagramSandbox {

  private static final String XMLNS = "http://www.w3.org/2000/xmlns/";
  private static final String EXPRESSIONS = "an analyst's expressions read variables with property access, literals and"
      + " operators, e.g. ${route == 'done'} or ${decision == 'accept' && conversation}";

  private final Set<String> forms;
  private final Predicate<String> beans;

  /**
   * @param forms the ids of AgentLoop's forms, the only ones an analyst's tasks show
   * @param beans whether a name is a bean of the application or the engine, which no variable of a diagram may shadow
   */
  DiagramSandbox(Set<String> forms, Predicate<String> beans) {
    this.forms = Set.copyOf(forms);
    this.beans = beans;
  }

  List<SandboxProblem> check(String file, byte[] xml) {
    Optional<Document> document = DiagramXml.read(xml);
    if (document.isEmpty()) {
      // what AgentLoop cannot read, it cannot vouch for, whatever the engine's parser would make of it
      return List.of(new SandboxProblem(file, null, "is no XML AgentLoop can read (a DTD and entities are refused"
          + " too)", "save the diagram from Camunda Modeler as it is"));
    }
    Element root = document.get().getDocumentElement();
    Walk walk = new Walk(file, new SafeExpressions(DiagramXml.declaredVariables(root), beans));
    walk.element(root, null);
    return walk.problems;
  }

  /** One walk over one file, collecting its problems. */
  private final class Walk {

    private final String file;
    private final SafeExpressions expressions;
    private final List<SandboxProblem> problems = new ArrayList<>();

    Walk(String file, SafeExpressions expressions) {
      this.file = file;
      this.expressions = expressions;
    }

    void element(Element element, String owner) {
      String namespace = element.getNamespaceURI();
      if (isDrawing(namespace)) {
        return;
      }
      String name = DiagramXml.qualified(namespace, element.getLocalName());
      String here = element.hasAttribute("id") && SandboxRules.BPMN.equals(namespace)
          ? element.getLocalName() + " '" + element.getAttribute("id") + "'" : owner;
      Optional<ElementRule> rule = SandboxRules.of(namespace, element.getLocalName());
      if (rule.isEmpty()) {
        boolean named = element.hasAttribute("id");
        refuse(named ? element.getLocalName() + " '" + element.getAttribute("id") + "'" : owner,
            (named ? "is a " + name + ", which " : name + " ") + SandboxHints.why(name),
            SandboxHints.instead(name, SandboxHints.GENERAL));
        return;
      }
      attributes(element, rule.get(), here);
      if (rule.get().text() == Value.EXPRESSION && !DiagramXml.hasChildElements(element)) {
        check(here, "the " + element.getLocalName(), element.getTextContent().trim(), Value.EXPRESSION);
      }
      wholeElement(element, here);
      for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
        if (child instanceof Element childElement) {
          element(childElement, here);
        }
      }
    }

    private void attributes(Element element, ElementRule rule, String here) {
      NamedNodeMap attributes = element.getAttributes();
      for (int i = 0; i < attributes.getLength(); i++) {
        Attr attribute = (Attr) attributes.item(i);
        String namespace = attribute.getNamespaceURI();
        if (XMLNS.equals(namespace) || isDrawing(namespace)) {
          continue;
        }
        String name = DiagramXml.qualified(namespace, attribute.getLocalName());
        Value value = rule.attributes().get(name);
        if (value == null) {
          refuse(here, "attribute " + name + " " + SandboxHints.why(name), SandboxHints.instead(name, "an analyst's "
              + element.getLocalName() + " may carry " + String.join(", ", new TreeSet<>(rule.attributes().keySet()))));
        } else {
          check(here, "attribute " + name, attribute.getValue(), value);
        }
      }
    }

    /** What a whole element must be: a user task is one of AgentLoop's reviews, a call activity asks agents. */
    private void wholeElement(Element element, String here) {
      if (!SandboxRules.BPMN.equals(element.getNamespaceURI())) {
        return;
      }
      if ("userTask".equals(element.getLocalName())
          && DiagramXml.property(element, ReactAgentProcess.REVIEW_PROPERTY) == null) {
        refuse(here, "a user task without the property " + ReactAgentProcess.REVIEW_PROPERTY + " is no review of"
            + " AgentLoop's", "apply a template Agent: review (plan, answer, tool calls) or Agent: ask human");
      }
      if ("callActivity".equals(element.getLocalName())
          && !"true".equals(DiagramXml.property(element, ReactAgentProcess.CALL_AGENT_PROPERTY))) {
        refuse(here, "a call activity without the property " + ReactAgentProcess.CALL_AGENT_PROPERTY + "=true would"
            + " start a process that is no agent", "apply the template Agent: call an agent");
      }
    }

    private void check(String here, String what, String text, Value value) {
      switch (value) {
        case ANY -> { }
        case EXPRESSION -> expressions.problem(text).ifPresent(problem ->
            refuse(here, what + ": the expression " + text + " " + problem, EXPRESSIONS));
        case EXTERNAL -> require(here, what, text, "external".equals(text), "a service task of an analyst's agent is"
            + " served by AgentLoop's worker: camunda:type=\"external\" (templates Agent: plan, think, act)");
        case AGENT_TOPIC -> {
          require(here, what, text, text.startsWith(ReactAgentProcess.TOPIC_PREFIX), "an analyst's external tasks are"
              + " on AgentLoop's topics (" + ReactAgentProcess.TOPIC_PREFIX + "*): templates Agent: plan, think, act,"
              + " call a remote tool");
          check(here, what, text, Value.EXPRESSION);
        }
        case CALLED_AGENT -> require(here, what, text, "${tool}".equals(text), "a call activity of an analyst's agent"
            + " calls the agent its model asked for, calledElement=\"${tool}\" (template Agent: call an agent)");
        case LATEST -> require(here, what, text, "latest".equals(text), "a called agent is bound at its latest version");
        case BUSINESS_KEY -> {
          if (!SandboxRules.CALLERS_BUSINESS_KEY.equals(text)) {
            check(here, what, text, Value.EXPRESSION);
          }
        }
        case AGENTLOOP_FORM -> require(here, what, text, forms.contains(text), "an analyst's tasks show AgentLoop's"
            + " forms: " + String.join(", ", new TreeSet<>(forms)));
      }
    }

    private void require(String here, String what, String text, boolean met, String instead) {
      if (!met) {
        refuse(here, what + " is '" + text + "'", instead);
      }
    }

    private void refuse(String element, String problem, String instead) {
      problems.add(new SandboxProblem(file, element, problem, instead));
    }
  }

  private static boolean isDrawing(String namespace) {
    return namespace != null && SandboxRules.DRAWING.contains(namespace);
  }
}
