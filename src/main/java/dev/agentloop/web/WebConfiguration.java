package dev.agentloop.web;

import dev.agentloop.agent.AgentRuns;
import dev.agentloop.config.AgentLoopProperties;
import dev.agentloop.resume.ResumeService;
import dev.agentloop.resume.RunRestarts;
import dev.agentloop.resilience.Breakers;
import dev.agentloop.review.ReviewTasks;
import dev.agentloop.security.RunAccess;
import dev.agentloop.trace.RunInsights;
import dev.agentloop.trace.TraceRetention;
import jakarta.servlet.DispatcherType;
import org.apache.catalina.core.StandardHost;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The REST API's controllers (under {@code agentloop.api.base-path}) and its problem handling. */
@Configuration(proxyBeanMethods = false)
public class WebConfiguration {

  @Bean
  RunController runController(AgentRuns runs, ReviewTasks tasks, RunAccess access, TraceRetention retention,
      RunInsights insights, AgentLoopProperties properties) {
    return new RunController(runs, tasks, access, retention, insights, properties.api().basePath());
  }

  @Bean
  ResumeController resumeController(ResumeService resume, RunRestarts restarts, AgentRuns runs, RunAccess access,
      AgentLoopProperties properties) {
    return new ResumeController(resume, restarts, runs, access, properties.api().basePath());
  }

  @Bean
  BreakerController breakerController(Breakers breakers) {
    return new BreakerController(breakers);
  }

  @Bean
  ApiProblems apiProblems() {
    return new ApiProblems();
  }

  /** Errors before any controller (415, unmapped paths and methods) on the error dispatch, see {@link ApiErrorDispatch}. */
  @Bean
  FilterRegistrationBean<ApiErrorDispatch> apiErrorDispatch(AgentLoopProperties properties) {
    FilterRegistrationBean<ApiErrorDispatch> registration =
        new FilterRegistrationBean<>(new ApiErrorDispatch(properties.api()));
    registration.setName("agentloop-api-errors");
    registration.setDispatcherTypes(DispatcherType.ERROR);
    registration.addUrlPatterns("/*");
    return registration;
  }

  /** Requests Tomcat refuses before any servlet, see {@link ApiErrorReportValve}. */
  @Bean
  @ConditionalOnClass(name = "org.apache.catalina.startup.Tomcat")
  WebServerFactoryCustomizer<TomcatServletWebServerFactory> apiErrorReportValve(AgentLoopProperties properties) {
    return factory -> factory.addContextCustomizers(context -> {
      StandardHost host = (StandardHost) context.getParent();
      ApiErrorReportValve valve = new ApiErrorReportValve(properties.api());
      // Tomcat adds a valve of the host's errorReportValveClass at start unless one is there already
      host.setErrorReportValveClass(ApiErrorReportValve.class.getName());
      host.getPipeline().addValve(valve);
    });
  }
}
