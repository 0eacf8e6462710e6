package dev.agentloop.internal.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.evaluation.InvalidCandidateException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;

/** The table of problems whose detail is the exception's message; the API's answers are tested through HTTP. */
class ApiProblemsTest {

  @Test
  void theHandlerTakesExactlyTheExceptionsOfTheTable() throws NoSuchMethodException {
    ExceptionHandler handler = ApiProblems.class.getDeclaredMethod("plain", RuntimeException.class)
        .getAnnotation(ExceptionHandler.class);
    Set<Class<?>> handled = new HashSet<>(List.of(handler.value()));

    assertThat(handled).isEqualTo(ApiProblems.PLAIN.keySet());
  }

  @Test
  void anExceptionIsTheProblemOfItsClass() {
    ProblemDetail problem = new ApiProblems().plain(new UnknownRunException("r-1"));

    assertThat(problem.getStatus()).isEqualTo(404);
    assertThat(problem.getTitle()).isEqualTo("Unknown run");
    assertThat(problem.getDetail()).isEqualTo(new UnknownRunException("r-1").getMessage());
  }

  @Test
  void aSubclassIsTheProblemOfItsNearestClassInTheTable() {
    ProblemDetail problem = new ApiProblems().plain(new InvalidCandidateException("the candidate does not parse"));

    assertThat(problem.getStatus()).isEqualTo(400);
    assertThat(problem.getTitle()).isEqualTo("Evaluation not accepted");
    assertThat(problem.getDetail()).isEqualTo("the candidate does not parse");
  }
}
