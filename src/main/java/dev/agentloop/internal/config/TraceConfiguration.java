package dev.agentloop.internal.config;

import dev.agentloop.internal.trace.TreeCharges;

import dev.agentloop.internal.trace.StepStore;

import dev.agentloop.internal.trace.RunWatchers;

import dev.agentloop.internal.trace.RunInsights;

import dev.agentloop.internal.trace.DecisionLog;

import dev.agentloop.internal.trace.DatabaseSettings;

import dev.agentloop.internal.trace.ConversationClaims;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.agentloop.internal.trace.retention.TraceRetention;
import dev.agentloop.internal.trace.schema.TraceSchema;
import javax.sql.DataSource;
import org.camunda.bpm.spring.boot.starter.property.CamundaBpmProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The step store and its retention, on the engine's data source so their writes share the engine's
 * transactions; its tables are checked (and, with {@code agentloop.database.schema-update}, brought up
 * to date) before the step store is used.
 */
@Configuration(proxyBeanMethods = false)
public class TraceConfiguration {

  /** Who follows runs in this JVM hears of their changes here, see {@link RunWatchers}. */
  @Bean
  RunWatchers agentLoopRunWatchers() {
    return new RunWatchers();
  }

  @Bean
  StepStore stepStore(DataSource dataSource, PlatformTransactionManager transactionManager, ObjectMapper json,
      DatabaseSettings database, ObjectProvider<CamundaBpmProperties> camunda, RunWatchers changes) {
    CamundaBpmProperties engine = camunda.getIfAvailable();
    TraceSchema.prepare(dataSource,
        database.updates(engine == null ? null : engine.getDatabase().getSchemaUpdate()));
    return new StepStore(new JdbcTemplate(dataSource), transactionManager, json, changes);
  }

  @Bean
  DecisionLog decisionLog(DataSource dataSource, RunWatchers changes) {
    return new DecisionLog(new JdbcTemplate(dataSource), changes);
  }

  @Bean
  RunInsights runInsights(DataSource dataSource, ObjectMapper json) {
    return new RunInsights(new JdbcTemplate(dataSource), json);
  }

  @Bean
  TreeCharges treeCharges(DataSource dataSource, PlatformTransactionManager transactionManager) {
    return new TreeCharges(new JdbcTemplate(dataSource), transactionManager);
  }

  @Bean
  ConversationClaims conversationClaims(DataSource dataSource) {
    return new ConversationClaims(new JdbcTemplate(dataSource));
  }

  @Bean
  TraceRetention traceRetention(DataSource dataSource, PlatformTransactionManager transactionManager) {
    return new TraceRetention(new JdbcTemplate(dataSource), transactionManager);
  }
}
