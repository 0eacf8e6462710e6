package dev.agentloop.internal.review;

import dev.agentloop.internal.agent.ReviewKind;
import dev.agentloop.internal.agent.compose.ChildRuns;
import dev.agentloop.internal.agent.definition.AgentDefinitions;
import dev.agentloop.internal.agent.loop.Router;
import dev.agentloop.internal.budget.BudgetCheck;
import dev.agentloop.internal.llm.LlmSettings;
import dev.agentloop.internal.resilience.Breakers;
import dev.agentloop.internal.resume.InFlowChanges;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.tool.ToolRegistry;
import dev.agentloop.internal.trace.DecisionLog;
import dev.agentloop.internal.trace.StepReads;
import java.util.Map;
import java.util.function.Supplier;
import org.camunda.bpm.engine.ProcessEngine;
import org.camunda.bpm.engine.impl.cfg.ProcessEnginePlugin;
import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The reviews (plan, ask-human, approval, answer, agent stuck) and the listeners that connect them to their user tasks. */
@Configuration(proxyBeanMethods = false)
public class ReviewConfiguration {

  static final String SCRIPTED_NOTICE = "Scripted demo model: its replies follow a script. Set agentloop.llm.provider"
      + " for a real model.";

  @Bean
  Reviews reviews(StepReads store, DecisionLog decisions, AgentDefinitions definitions, Router router,
      ToolRegistry tools, Breakers breakers, BudgetCheck budgets, ObjectProvider<ResumeService> resume, LlmSettings llm,
      ChildRuns agentCalls) {
    // the engine plugin needs the reviews before the engine exists, and the resume service needs the engine; reviews
    // read the run from the store and change it only through the resume service's door for forms
    Supplier<InFlowChanges> changes = () -> resume.getObject().inFlow();
    FormStepEdit stepEdit = new FormStepEdit(changes);
    CallsForPeople calls = new CallsForPeople(changes);
    return new Reviews(Map.of(
        ReviewKind.PLAN, new PlanReview(changes, definitions),
        ReviewKind.ASK_HUMAN, new AskHumanReview(calls),
        ReviewKind.APPROVE_ACTION, new ActionApproval(calls, router, definitions, tools),
        ReviewKind.ANSWER, new AnswerReview(changes, stepEdit, definitions, new FormTurnRedo(changes, definitions)),
        ReviewKind.AGENT_STUCK, new AgentStuckReview(changes, calls, breakers, stepEdit, definitions, budgets,
            agentCalls)),
        calls, definitions, decisions, store, llm.provider() == LlmSettings.Provider.SCRIPTED ? SCRIPTED_NOTICE : "");
  }

  /**
   * On the submit-form of the engine REST API and of the webapps' copy of it (Tasklist's), a refused
   * review answers with the review's sentence alone, see {@link RefusalMessages}. Only in a servlet web
   * application: there is no request to answer elsewhere.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
  static class TasklistRefusals {

    @Bean
    FilterRegistrationBean<RefusalMessages> reviewRefusalMessages(CamundaBpmProperties camunda,
        @Value("${spring.jersey.application-path:/engine-rest}") String restPath) {
      var registration = new FilterRegistrationBean<>(new RefusalMessages());
      registration.setName("agentloop-review-refusal-messages");
      registration.addUrlPatterns(restPath + "/*", camunda.getWebapp().getApplicationPath() + "/api/engine/*");
      return registration;
    }
  }

  /**
   * Refusals and lost races of a submission logged as Camunda logs bad requests, see {@link ExpectedRefusals}.
   * Static: the engine's plugins exist before the engine, and so before this configuration's other beans.
   */
  @Bean
  static ProcessEnginePlugin reviewExpectedRefusals(ObjectProvider<AgentDefinitions> definitions) {
    return ExpectedRefusals.plugin(processDefinitionId -> definitions.getObject().isAgent(processDefinitionId));
  }

  @Bean
  MigratedForms migratedForms(ProcessEngine engine) {
    return new MigratedForms(engine.getTaskService());
  }

  @Bean
  ReviewTasks reviewTasks(ProcessEngine engine) {
    return new ReviewTasks(engine);
  }
}
