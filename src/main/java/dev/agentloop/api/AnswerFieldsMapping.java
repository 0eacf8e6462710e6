package dev.agentloop.api;

import org.camunda.bpm.engine.delegate.DelegateExecution;
import org.camunda.bpm.engine.delegate.DelegateVariableMapping;
import org.camunda.bpm.engine.delegate.VariableScope;
import org.camunda.bpm.engine.variable.VariableMap;

/**
 * The variable mapping of a call activity that asks an agent ({@code camunda:variableMappingClass}, set by the
 * element template "Ask an agent"): when the run ends, every field of its answer comes out as a variable of the
 * calling process, {@code answer_<name>} as the agent's answer schema names it, so that a gateway routes on it
 * directly ({@code ${answer_category == 'defect'}}). The fields are there, {@code null} where the answer left one
 * out, when the run answered; a run that ended without an answer (rejected, stopped) has none, so route on the
 * outcome first. The call activity's {@code camunda:in}/{@code camunda:out} mappings stay as they are (question,
 * outcome, {@code answerData}). Stateless and thread-safe: Camunda makes one per call.
 */
public class AnswerFieldsMapping implements DelegateVariableMapping {

  /** What the variable of an answer's field is named by: {@code answer_category}. */
  public static final String PREFIX = "answer_";

  @Override
  public void mapInputVariables(DelegateExecution superExecution, VariableMap subVariables) {
    // the template's camunda:in mappings pass the question (and an answer schema, where the process gives one)
  }

  @Override
  public void mapOutputVariables(DelegateExecution superExecution, VariableScope subInstance) {
    for (String name : subInstance.getVariableNames()) {
      if (name.startsWith(PREFIX)) {
        superExecution.setVariable(name, subInstance.getVariableTyped(name));
      }
    }
  }
}
