package dev.agentloop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * The whole app on a random port with the test script, the test tools and the test agent. Test
 * classes with this annotation share one Spring context (and one in-memory database), so each test
 * works on runs of its own. What the model received is counted per run ({@link ModelCalls}). The test tool
 * {@code unreliable} gets a breaker that opens at its first failure and stays open until a test closes it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // a test tool with side effects that runs unapproved, see TestTools#logEventTool, and one without
    // that waits for approval, see TestTools#auditedLookupTool
    properties = {"agentloop.tools.approval.log_event=false", "agentloop.tools.approval.audited_lookup=true"})
@ActiveProfiles("test")
@Import({TestTools.class, TestAgent.class, ModelCalls.class})
@TestPropertySource(properties = {"agentloop.resilience.tool-breakers.unreliable.failure-threshold=1",
    "agentloop.resilience.tool-breakers.unreliable.failure-executions=1",
    "agentloop.resilience.tool-breakers.unreliable.delay=PT1H",
    "agentloop.resilience.tool-breakers.unreliable.success-threshold=1"})
public @interface AgentLoopTest {}
