package dev.agentloop.internal.security;

import java.util.Objects;

/**
 * One thing of a deployment that an analyst may not deploy, in words: where (the file, and the element by its type and
 * id), what (the attribute or part and why it is refused) and what an analyst may use instead. Immutable.
 *
 * @param file the resource's name in the deployment
 * @param element the element's type and id ({@code serviceTask 'lookup'}), or {@code null} for the whole file
 * @param problem what is refused and why, e.g. {@code attribute camunda:class runs Java code of the application}
 * @param instead what an analyst may use instead, or {@code null} where there is nothing to say
 */
record SandboxProblem(String file, String element, String problem, String instead) {

  SandboxProblem {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(problem, "problem");
  }

  /** {@code file: element: problem; instead}. */
  String message() {
    return file + ": " + (element == null ? "" : element + ": ") + problem + (instead == null ? "" : "; " + instead);
  }
}
