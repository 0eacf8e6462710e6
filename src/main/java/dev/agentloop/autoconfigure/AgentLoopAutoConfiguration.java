package dev.agentloop.autoconfigure;

import dev.agentloop.internal.config.AgentLoopConfiguration;
import org.camunda.bpm.spring.boot.starter.CamundaBpmAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Import;

/**
 * Brings AgentLoop into a Camunda 7 Spring Boot application, after Camunda's own auto-configuration. It changes
 * nothing else of the application; {@code agentloop.enabled=false} switches all of it off. The one type of
 * AgentLoop's that a host names besides {@code dev.agentloop.api} and {@code dev.agentloop.spi}: to exclude it, or
 * to order its own auto-configuration against it. What it brings is internal ({@code dev.agentloop.internal}).
 */
@AutoConfiguration(after = CamundaBpmAutoConfiguration.class)
@ConditionalOnProperty(prefix = "agentloop", name = "enabled", havingValue = "true", matchIfMissing = true)
@Import(AgentLoopConfiguration.class)
public class AgentLoopAutoConfiguration {
}
