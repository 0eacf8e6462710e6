package dev.agentloop.internal.web;

import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.agentloop.internal.events.TooManyFollowersException;
import dev.agentloop.internal.agent.run.ConversationInUseException;
import dev.agentloop.api.UnknownAgentException;
import dev.agentloop.api.UnknownRunException;
import dev.agentloop.internal.evaluation.InvalidEvaluationException;
import dev.agentloop.internal.evaluation.PromotionRefusedException;
import dev.agentloop.internal.evaluation.UnknownEvaluationException;
import dev.agentloop.internal.resume.InvalidEditException;
import dev.agentloop.internal.resume.InvalidMigrationException;
import dev.agentloop.internal.resume.ResumeConflictException;
import dev.agentloop.internal.resume.UnknownStepException;
import dev.agentloop.internal.review.ReviewException;
import dev.agentloop.internal.review.TaskDecidedException;
import dev.agentloop.internal.trace.retention.RunNotFinishedException;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Map;
import java.util.stream.Collectors;
import org.camunda.bpm.engine.AuthorizationException;
import org.camunda.bpm.engine.OptimisticLockingException;
import org.camunda.bpm.engine.exception.NotFoundException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.dao.ConcurrencyFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;

/**
 * Every error of {@code /api} as an RFC 9457 problem document whose {@code detail} says, in words,
 * what was wrong and how to fix it. Ordered first, so an application's own problem handling
 * (or Spring Boot's) does not replace these messages for AgentLoop's endpoints.
 */
@RestControllerAdvice(basePackageClasses = ApiProblems.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class ApiProblems extends ResponseEntityExceptionHandler {

  private static final Logger LOG = LoggerFactory.getLogger(ApiProblems.class);

  /**
   * The problems whose detail is the exception's own message, by the exception's class: their status and title. A
   * subclass is the problem of its nearest class here, as Spring picks the nearest handler.
   */
  static final Map<Class<?>, Kind> PLAIN = Map.ofEntries(
      plain(UnknownRunException.class, HttpStatus.NOT_FOUND, "Unknown run"),
      plain(UnknownAgentException.class, HttpStatus.BAD_REQUEST, "Unknown agent"),
      // Camunda's authorization said no; its message names the missing permission
      plain(AuthorizationException.class, HttpStatus.FORBIDDEN, "Forbidden"),
      plain(NotFoundException.class, HttpStatus.NOT_FOUND, "Not found"),
      plain(UnknownStepException.class, HttpStatus.NOT_FOUND, "Unknown step"),
      plain(NoPromptException.class, HttpStatus.NOT_FOUND, "No prompt for this step"),
      // content of an edit that cannot be used (wrong shape, arguments that break the tool's schema)
      plain(InvalidEditException.class, HttpStatus.BAD_REQUEST, "Edit not accepted"),
      // a migration asked for as it cannot be: no such version, no runs named, no reason; nothing moved
      plain(InvalidMigrationException.class, HttpStatus.BAD_REQUEST, "Migration not accepted"),
      plain(UnknownEvaluationException.class, HttpStatus.NOT_FOUND, "Unknown evaluation"),
      // an evaluation refused before any case ran: its cases, its judge or its candidate, in words
      plain(InvalidEvaluationException.class, HttpStatus.BAD_REQUEST, "Evaluation not accepted"),
      plain(PromotionRefusedException.class, HttpStatus.CONFLICT, "Promotion refused"),
      plain(InvalidParameterException.class, HttpStatus.BAD_REQUEST, "Invalid parameter"));

  /** A problem's status and title. */
  record Kind(HttpStatus status, String title) {
  }

  private static Map.Entry<Class<?>, Kind> plain(Class<? extends RuntimeException> type, HttpStatus status,
      String title) {
    return Map.entry(type, new Kind(status, title));
  }

  /** Every exception of {@link #PLAIN}: the list here and the table's keys are the same (ApiProblemsTest). */
  @ExceptionHandler({UnknownRunException.class, UnknownAgentException.class, AuthorizationException.class,
      NotFoundException.class, UnknownStepException.class, NoPromptException.class, InvalidEditException.class,
      InvalidMigrationException.class, UnknownEvaluationException.class, InvalidEvaluationException.class,
      PromotionRefusedException.class, InvalidParameterException.class})
  ProblemDetail plain(RuntimeException e) {
    Class<?> type = e.getClass();
    while (!PLAIN.containsKey(type)) {
      type = type.getSuperclass();
    }
    Kind kind = PLAIN.get(type);
    return problem(kind.status(), kind.title(), e.getMessage());
  }

  /** A submission a review task cannot use (unknown decision, empty plan, arguments that break a schema). */
  @ExceptionHandler(ReviewException.class)
  ProblemDetail badSubmission(ReviewException e, HttpServletRequest request) {
    return logged(problem(HttpStatus.BAD_REQUEST, "Submission not accepted", e.getMessage()), e, request);
  }

  /**
   * An edit, regenerate, stop or restart that does not fit the run's state, a task completed by
   * another request first, a start under a conversation id an open run holds, or a trace deleted while
   * its run still runs, or a change that waited longer for the run's row than the database waits for a lock (many
   * people or requests on one run on a loaded machine); nothing was changed, as the transaction rolled back. Expected
   * when people work on one run at once, so it is one line in the log, not a stack trace.
   */
  @ExceptionHandler({ResumeConflictException.class, TaskDecidedException.class, OptimisticLockingException.class,
      RunNotFinishedException.class, ConversationInUseException.class, ConcurrencyFailureException.class})
  ProblemDetail conflict(RuntimeException e, HttpServletRequest request) {
    String detail = e instanceof OptimisticLockingException
        ? "the run changed at the same moment (another request, or the agent's own step); nothing of this request"
            + " was applied: read the run again and retry"
        : e instanceof ConcurrencyFailureException
            ? "another change held the run longer than the database waits; nothing of this request was applied:"
                + " read the run again and retry"
            : e.getMessage();
    return logged(problem(HttpStatus.CONFLICT, "Conflict", detail), e, request);
  }

  /** The node follows as many runs as it may; the client tries again a little later. */
  @ExceptionHandler(TooManyFollowersException.class)
  ResponseEntity<ProblemDetail> tooManyFollowers(TooManyFollowersException e) {
    return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, "10")
        .body(problem(HttpStatus.SERVICE_UNAVAILABLE, "Too many followers", e.getMessage()));
  }

  @Override
  protected ResponseEntity<Object> handleHttpMessageNotReadable(HttpMessageNotReadableException e,
      HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    for (Throwable cause = e; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
      if (cause instanceof ApiBodyLimit.BodyTooLargeException) {
        return answer(HttpStatus.PAYLOAD_TOO_LARGE, "Request body too large", cause.getMessage());
      }
      if (cause instanceof StreamConstraintsException limit) {
        // Jackson's own limits (a string's length, a number's, nesting): its message names the limit
        return answer(HttpStatus.BAD_REQUEST, "Value too long",
            "a value in the body is longer than the API reads: " + limit.getOriginalMessage());
      }
    }
    return answer(HttpStatus.BAD_REQUEST, "Unreadable request body", UnreadableBodies.detail(e, request));
  }

  @Override
  protected ResponseEntity<Object> handleMethodArgumentNotValid(MethodArgumentNotValidException e,
      HttpHeaders headers, HttpStatusCode status, WebRequest request) {
    String detail = e.getBindingResult().getFieldErrors().stream()
        .map(error -> error.getField() + " " + error.getDefaultMessage())
        .collect(Collectors.joining("; "));
    return answer(HttpStatus.BAD_REQUEST, "Invalid request", detail);
  }

  private static ResponseEntity<Object> answer(HttpStatus status, String title, String detail) {
    return ResponseEntity.status(status).body(problem(status, title, detail));
  }

  /** An expected refusal, one line in the log rather than a stack trace. */
  private static ProblemDetail logged(ProblemDetail problem, RuntimeException e, HttpServletRequest request) {
    LOG.info("{} for {} {}: {}", problem.getStatus(), request.getMethod(), request.getRequestURI(), e.getMessage());
    return problem;
  }

  static ProblemDetail problem(HttpStatus status, String title, String detail) {
    ProblemDetail problem = ProblemDetail.forStatusAndDetail(status, detail);
    problem.setTitle(title);
    return problem;
  }
}
