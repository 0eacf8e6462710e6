package dev.agentloop.trace;

import com.fasterxml.jackson.databind.ObjectMapper;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * The step store and its retention, on the engine's data source so their writes share the engine's
 * transactions.
 */
@Configuration(proxyBeanMethods = false)
public class TraceConfiguration {

  @Bean
  StepStore stepStore(DataSource dataSource, PlatformTransactionManager transactionManager, ObjectMapper json) {
    TraceSchema.create(dataSource);
    return new StepStore(new JdbcTemplate(dataSource), transactionManager, json);
  }

  @Bean
  DecisionLog decisionLog(DataSource dataSource) {
    return new DecisionLog(new JdbcTemplate(dataSource));
  }

  @Bean
  RunInsights runInsights(DataSource dataSource, ObjectMapper json) {
    return new RunInsights(new JdbcTemplate(dataSource), json);
  }

  @Bean
  TraceRetention traceRetention(DataSource dataSource, PlatformTransactionManager transactionManager) {
    return new TraceRetention(new JdbcTemplate(dataSource), transactionManager);
  }
}
