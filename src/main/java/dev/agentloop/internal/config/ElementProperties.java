package dev.agentloop.internal.config;

import java.util.LinkedHashMap;
import java.util.Map;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParse;
import org.camunda.bpm.engine.impl.bpmn.parser.BpmnParseUtil;
import org.camunda.bpm.engine.impl.util.xml.Element;

/**
 * The settings an element template writes on a task of an agent, read from the parsed XML: its extension properties
 * and its fields, which hold the multi-line settings (prompts), as one map.
 */
final class ElementProperties {

  private ElementProperties() {}

  /** The element's fields, then its extension properties, which win where both name the same key. */
  static Map<String, String> of(Element element) {
    Map<String, String> properties = new LinkedHashMap<>();
    Element extensions = element.element("extensionElements");
    if (extensions != null) {
      for (Element field : extensions.elementsNS(BpmnParse.CAMUNDA_BPMN_EXTENSIONS_NS, "field")) {
        Element string = field.elementNS(BpmnParse.CAMUNDA_BPMN_EXTENSIONS_NS, "string");
        String value = field.attribute("stringValue");
        properties.put(field.attribute("name"), value != null ? value : string == null ? "" : string.getText());
      }
    }
    Map<String, String> declared = BpmnParseUtil.parseCamundaExtensionProperties(element);
    if (declared != null) {
      properties.putAll(declared);
    }
    return properties;
  }
}
