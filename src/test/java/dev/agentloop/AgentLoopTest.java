package dev.agentloop;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * The whole app on a random port with the test script, the test tools and the test agent. Test
 * classes with this annotation share one Spring context (and one in-memory database), so each test
 * works on runs of its own.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(classes = AgentLoopApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    // a test tool with side effects that runs unapproved, see TestTools#logEventTool
    properties = "agentloop.tools.approval.log_event=false")
@ActiveProfiles("test")
@Import({TestTools.class, TestAgent.class})
public @interface AgentLoopTest {}
