package dev.agentloop.internal.security;

import java.io.ByteArrayInputStream;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * An analyst's diagram as {@link DiagramSandbox} reads it: the XML itself, read without trusting it, and what the
 * sandbox looks up in it (the variables it declares, a task's extension property). Apart from the sandbox, which
 * holds the rules. Thread-safe (stateless).
 */
final class DiagramXml {

  private DiagramXml() {}

  /** Namespace-aware, and deaf to DTDs and external entities: the file is an analyst's, not to be trusted. */
  static Optional<Document> read(byte[] xml) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setNamespaceAware(true);
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setXIncludeAware(false);
      factory.setExpandEntityReferences(false);
      return Optional.of(factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml)));
    } catch (Exception unreadable) {
      return Optional.empty();
    }
  }

  /** The variables a diagram sets itself, which its expressions may read beside AgentLoop's. */
  static Set<String> declaredVariables(Element root) {
    Set<String> declared = new HashSet<>();
    var all = root.getElementsByTagNameNS("*", "*");
    for (int i = 0; i < all.getLength(); i++) {
      Element element = (Element) all.item(i);
      for (String attribute : SandboxRules.DECLARING) {
        String value = element.getAttributeNS(SandboxRules.CAMUNDA, attribute.substring("camunda:".length()));
        if (!value.isBlank()) {
          declared.add(value.trim());
        }
      }
      boolean camunda = SandboxRules.CAMUNDA.equals(element.getNamespaceURI());
      if (camunda && "out".equals(element.getLocalName()) && !element.getAttribute("target").isBlank()) {
        declared.add(element.getAttribute("target").trim());
      }
      if (camunda && element.getLocalName().endsWith("Parameter") && !element.getAttribute("name").isBlank()) {
        declared.add(element.getAttribute("name").trim());
      }
    }
    return declared;
  }

  /** The value of the task's extension property of this name, or {@code null}. */
  static String property(Element task, String name) {
    var properties = task.getElementsByTagNameNS(SandboxRules.CAMUNDA, "property");
    for (int i = 0; i < properties.getLength(); i++) {
      Element property = (Element) properties.item(i);
      if (name.equals(property.getAttribute("name"))) {
        return property.getAttribute("value");
      }
    }
    return null;
  }

  /** How the sandbox names an element or attribute: {@code camunda:x}, {@code xsi:x}, a BPMN one bare. */
  static String qualified(String namespace, String localName) {
    return SandboxRules.CAMUNDA.equals(namespace) ? "camunda:" + localName
        : SandboxRules.XSI.equals(namespace) ? "xsi:" + localName
        : namespace == null || SandboxRules.BPMN.equals(namespace) ? localName : "{" + namespace + "}" + localName;
  }

  static boolean hasChildElements(Element element) {
    for (Node child = element.getFirstChild(); child != null; child = child.getNextSibling()) {
      if (child instanceof Element) {
        return true;
      }
    }
    return false;
  }
}
