package dev.agentloop.internal.web;

import dev.agentloop.internal.agent.definition.DeploymentSettings;
import dev.agentloop.internal.evaluation.Evaluations;
import dev.agentloop.internal.agent.run.RunService;
import dev.agentloop.internal.events.RunEvents;
import dev.agentloop.internal.events.RunEventsSettings;
import dev.agentloop.internal.llm.ModelPrices;
import dev.agentloop.internal.resilience.Breakers;
import dev.agentloop.internal.resume.AgentMigrations;
import dev.agentloop.internal.resume.Conversations;
import dev.agentloop.internal.resume.ResumeService;
import dev.agentloop.internal.resume.RunRestarts;
import dev.agentloop.internal.review.ReviewTasks;
import dev.agentloop.internal.security.AgentOwnership;
import dev.agentloop.internal.security.ApiSettings;
import dev.agentloop.internal.security.RunAccess;
import dev.agentloop.internal.trace.RunInsights;
import dev.agentloop.internal.trace.retention.TraceRetention;
import jakarta.servlet.DispatcherType;
import org.apache.catalina.core.StandardHost;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.web.ServerProperties;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The REST API's controllers (under {@code agentloop.api.base-path}) and its problem handling; only in a
 * servlet web application (an engine-only application stays one without a web server).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
public class WebConfiguration {

  @Bean
  RunController runController(RunService runs, ReviewTasks tasks, RunAccess access, TraceRetention retention,
      RunInsights insights, ModelPrices prices, ApiSettings api, DeploymentSettings deployment) {
    return new RunController(runs, tasks, access, retention, insights, prices, api.basePath(),
        deployment.defaultAgentKey());
  }

  @Bean
  ResumeController resumeController(ResumeService resume, RunRestarts restarts, RunService runs, RunAccess access,
      ApiSettings api) {
    return new ResumeController(resume, restarts, runs, access, api.basePath());
  }

  @Bean
  ConversationController conversationController(Conversations conversations, RunService runs, RunAccess access) {
    return new ConversationController(conversations, runs, access);
  }

  @Bean
  AgentOwnerController agentOwnerController(AgentOwnership owners) {
    return new AgentOwnerController(owners);
  }

  @Bean
  AgentController agentController(AgentMigrations migrations, RunAccess access, ApiSettings api) {
    return new AgentController(migrations, access, api.basePath());
  }

  @Bean
  EvaluationController evaluationController(Evaluations evaluations, ApiSettings api) {
    return new EvaluationController(evaluations, api.basePath());
  }

  @Bean
  RunEventController runEventController(RunEvents events, RunAccess access, RunEventsSettings settings) {
    return new RunEventController(events, access, settings);
  }

  @Bean
  BreakerController breakerController(Breakers breakers) {
    return new BreakerController(breakers);
  }

  @Bean
  OpenApiController openApiController(ApiSettings api) {
    return new OpenApiController(api.basePath());
  }

  /** AgentLoop's own JSON for its controllers, see {@link ApiJson}. */
  @Bean
  WebMvcConfigurer agentLoopJson() {
    return ApiJson.installer();
  }

  @Bean
  ApiProblems apiProblems() {
    return new ApiProblems();
  }

  /** Errors before any controller (415, unmapped paths and methods) on the error dispatch, see {@link ApiErrorDispatch}. */
  @Bean
  FilterRegistrationBean<ApiErrorDispatch> apiErrorDispatch(ApiSettings api) {
    FilterRegistrationBean<ApiErrorDispatch> registration =
        new FilterRegistrationBean<>(new ApiErrorDispatch(api));
    registration.setName("agentloop-api-errors");
    registration.setDispatcherTypes(DispatcherType.ERROR);
    registration.addUrlPatterns("/*");
    return registration;
  }

  /** Bodies of API requests bounded, see {@link ApiBodyLimit}. */
  @Bean
  FilterRegistrationBean<ApiBodyLimit> apiBodyLimit(ApiSettings api) {
    FilterRegistrationBean<ApiBodyLimit> registration = new FilterRegistrationBean<>(new ApiBodyLimit(api));
    registration.setName("agentloop-api-body-limit");
    registration.setDispatcherTypes(DispatcherType.REQUEST);
    registration.setUrlPatterns(api.urlPatterns());
    return registration;
  }

  /** A request sent straight to the error page, see {@link DirectErrorPageRequest}. */
  @Bean
  FilterRegistrationBean<DirectErrorPageRequest> directErrorPageRequest(ObjectProvider<ServerProperties> server) {
    ServerProperties properties = server.getIfAvailable();
    String path = properties == null ? "/error" : properties.getError().getPath();
    FilterRegistrationBean<DirectErrorPageRequest> registration =
        new FilterRegistrationBean<>(new DirectErrorPageRequest(path));
    registration.setName("agentloop-direct-error-page");
    registration.setDispatcherTypes(DispatcherType.REQUEST);
    registration.addUrlPatterns(path, path + "/*");
    return registration;
  }

  /** Requests Tomcat refuses before any servlet, see {@link ApiErrorReportValve}. */
  @Bean
  @ConditionalOnClass(name = "org.apache.catalina.startup.Tomcat")
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> apiErrorReportValve(ApiSettings api) {
    return factory -> factory.addContextCustomizers(context -> {
      StandardHost host = (StandardHost) context.getParent();
      ApiErrorReportValve valve = new ApiErrorReportValve(api);
      // Tomcat adds a valve of the host's errorReportValveClass at start unless one is there already
      host.setErrorReportValveClass(ApiErrorReportValve.class.getName());
      host.getPipeline().addValve(valve);
    });
  }
}
