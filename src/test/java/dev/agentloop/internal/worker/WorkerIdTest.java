package dev.agentloop.internal.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The default worker id: the same after a restart, different for two nodes on one host. */
class WorkerIdTest {

  @Test
  void should_take_host_name_and_port_by_default_so_that_a_restarted_node_has_its_old_id() throws Exception {
    String host = InetAddress.getLocalHost().getHostName();

    assertThat(WorkerConfiguration.workerId(null, "8081")).isEqualTo(host + "-8081");
    assertThat(WorkerConfiguration.workerId("", "8081")).isEqualTo(WorkerConfiguration.workerId(" ", "8081"));
    assertThat(WorkerConfiguration.workerId(null, null)).as("Spring Boot's default port").isEqualTo(host + "-8080");
  }

  @Test
  void should_differ_for_two_nodes_on_one_host() {
    assertThat(WorkerConfiguration.workerId(null, "8080")).isNotEqualTo(WorkerConfiguration.workerId(null, "8081"));
  }

  @Test
  void should_get_a_random_suffix_with_a_random_port_and_keep_a_configured_id() {
    assertThat(WorkerConfiguration.workerId(null, "0")).isNotEqualTo(WorkerConfiguration.workerId(null, "0"));
    assertThat(WorkerConfiguration.workerId(" node-1 ", "8080")).isEqualTo("node-1");
  }
}
