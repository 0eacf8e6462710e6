package dev.agentloop.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.agentloop.api.AgentLoopGroups;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.ProcessEngine;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * The demo's own material, outside AgentLoop: its users and the flaky tool come from the demo's
 * configuration and its {@code demo.*} keys, which AgentLoop's check of unknown keys leaves alone; the
 * keys they had under {@code agentloop.*} are refused at start, naming the key.
 */
@SpringBootTest(classes = DemoApplication.class, properties = "camunda.bpm.process-engine-name=demoApplication")
@ActiveProfiles("test")
class DemoApplicationTest {

  private final ApplicationContextRunner demoConfiguration = new ApplicationContextRunner()
      .withUserConfiguration(DemoConfiguration.class);

  @Autowired ProcessEngine engine;
  @Autowired ApplicationContext context;

  @Test
  void should_create_the_demo_users_in_agentloops_groups_with_their_user_id_as_password() {
    IdentityService identity = engine.getIdentityService();

    assertThat(identity.checkPassword("reviewer", "reviewer")).isTrue();
    assertThat(memberOf(identity, "reviewer", AgentLoopGroups.REVIEWERS)).isTrue();
    assertThat(memberOf(identity, "operator", AgentLoopGroups.REVIEWERS)).isTrue();
    assertThat(memberOf(identity, "operator", AgentLoopGroups.OPERATORS)).isTrue();
    assertThat(memberOf(identity, "worker", AgentLoopGroups.WORKERS)).isTrue();
    assertThat(memberOf(identity, "worker", AgentLoopGroups.REVIEWERS)).isFalse();
    // the Camunda admin user sees the agents' tasks too
    assertThat(memberOf(identity, "demo", AgentLoopGroups.REVIEWERS)).isTrue();
    assertThat(memberOf(identity, "demo", AgentLoopGroups.OPERATORS)).isTrue();
  }

  @Test
  void should_leave_the_flaky_tool_out_unless_asked_for() {
    assertThat(context.getBeansOfType(FlakyTool.class)).isEmpty();
  }

  @Test
  void should_add_the_flaky_tool_from_the_demos_keys_and_no_users_when_they_are_off() {
    demoConfiguration.withPropertyValues("demo.users.enabled=false", "demo.tools.flaky.enabled=true",
        "demo.tools.flaky.hang-rate=0").run(demo -> {
          assertThat(demo).hasNotFailed().doesNotHaveBean(DemoUsers.class);
          assertThat(demo.getBean(FlakyTool.class).name()).isEqualTo(FlakyTool.NAME);
        });
  }

  @Test
  void should_refuse_flaky_rates_that_add_up_to_more_than_one_naming_the_keys() {
    demoConfiguration.withPropertyValues("demo.tools.flaky.enabled=true", "demo.tools.flaky.transient-rate=0.6",
        "demo.tools.flaky.persistent-rate=0.6").run(demo -> assertThat(demo).getFailure()
            .rootCause().hasMessageContaining("transient-rate + persistent-rate + hang-rate must be at most 1"));
    demoConfiguration.withPropertyValues("demo.tools.flaky.transient-rate=2").run(demo -> assertThat(demo).getFailure()
        .rootCause().hasMessageContaining("demo.tools.flaky.transientRate").hasMessageContaining("rejected value [2.0]"));
  }

  @Test
  void should_refuse_the_keys_the_demo_had_under_agentloop_naming_them() {
    SpringApplicationBuilder demo = new SpringApplicationBuilder(DemoApplication.class).web(WebApplicationType.NONE)
        .profiles("test");

    assertThatThrownBy(() -> demo.run("--agentloop.demo.enabled=true", "--agentloop.tools.flaky.enabled=true"))
        .hasMessageContaining("'agentloop.demo.enabled' (set in commandLineArgs) is not a setting of AgentLoop")
        .hasMessageContaining("'agentloop.tools.flaky.enabled' (set in commandLineArgs) is not a setting of AgentLoop");
  }

  private static boolean memberOf(IdentityService identity, String user, String group) {
    return identity.createUserQuery().userId(user).memberOfGroup(group).count() == 1;
  }
}
