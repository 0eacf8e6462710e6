package dev.agentloop.internal.web.a2a;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A task id is its run and turn, and nothing else reads as one. */
class TaskRefTest {

  @Test
  void should_read_back_the_id_it_writes_and_nothing_else() {
    TaskRef ref = new TaskRef("14bc71c8-eb6e-11f1-a88c-02fc00000001", 3);

    assertThat(TaskRef.parse(ref.id())).contains(ref);
    assertThat(TaskRef.parse("14bc71c8:0")).isEmpty();
    assertThat(TaskRef.parse("14bc71c8")).isEmpty();
    assertThat(TaskRef.parse("../etc:1")).isEmpty();
    assertThat(TaskRef.parse(null)).isEmpty();
  }
}
