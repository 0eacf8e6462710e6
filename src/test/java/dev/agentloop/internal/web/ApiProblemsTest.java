package dev.agentloop.internal.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.evaluation.InvalidCandidateException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.http.ProblemDetail;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * The table of problems whose detail is the exception's message, and a lock the database gave up waiting for; the
 * API's answers are tested through HTTP.
 */
class ApiProblemsTest {

  @Test
  void should_take_exactly_the_exceptions_of_the_table() throws NoSuchMethodException {
    ExceptionHandler handler = ApiProblems.class.getDeclaredMethod("plain", RuntimeException.class)
        .getAnnotation(ExceptionHandler.class);
    Set<Class<?>> handled = new HashSet<>(List.of(handler.value()));

    assertThat(handled).isEqualTo(ApiProblems.PLAIN.keySet());
  }

  @Test
  void should_answer_an_exception_with_the_problem_of_its_class() {
    ProblemDetail problem = new ApiProblems().plain(new UnknownRunException("r-1"));

    assertThat(problem.getStatus()).isEqualTo(404);
    assertThat(problem.getTitle()).isEqualTo("Unknown run");
    assertThat(problem.getDetail()).isEqualTo(new UnknownRunException("r-1").getMessage());
  }

  @Test
  void should_answer_a_subclass_with_the_problem_of_its_nearest_class() {
    ProblemDetail problem = new ApiProblems().plain(new InvalidCandidateException("the candidate does not parse"));

    assertThat(problem.getStatus()).isEqualTo(400);
    assertThat(problem.getTitle()).isEqualTo("Evaluation not accepted");
    assertThat(problem.getDetail()).isEqualTo("the candidate does not parse");
  }

  @Test
  void should_answer_a_lock_the_database_gave_up_on_as_a_conflict_where_nothing_was_applied() {
    ProblemDetail problem = new ApiProblems().conflict(new CannotAcquireLockException("Timeout trying to lock table"
        + " \"AGENTLOOP_RUN\""), new MockHttpServletRequest("POST", "/api/runs/r-1/steps/3/edit"));

    assertThat(problem.getStatus()).isEqualTo(409);
    assertThat(problem.getDetail()).contains("nothing of this request was applied").doesNotContain("AGENTLOOP_RUN");
  }
}
