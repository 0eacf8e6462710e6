package dev.agentloop.internal.web.a2a;

import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Duration;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * AgentLoop's A2A server ({@code agentloop.a2a.*}, bound and validated by package {@code config}): each agent at
 * {@code <path>/<agent key>}, behind the same authentication as the REST API. Immutable.
 *
 * @param enabled whether agents are served over A2A at all (only in a servlet web application)
 * @param path where the agents are served, e.g. {@code /a2a} ({@code /a2a/react-agent}, its card at
 *     {@code /a2a/react-agent/.well-known/agent-card.json}); AgentLoop's authentication covers it
 * @param maxWait how long a {@code SendMessage} waits for its task to end or to wait for input; then it answers with
 *     the task as it stands ({@code TASK_STATE_WORKING}), which the caller asks for again with {@code GetTask}
 */
public record A2aSettings(
    @DefaultValue("true") boolean enabled,
    @DefaultValue("/a2a") @NotBlank @Pattern(regexp = "/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]",
        message = "must start with / and not end with /, e.g. /a2a") String path,
    @DefaultValue("PT30S") @NotNull Duration maxWait) {

  public A2aSettings {
    if (maxWait != null && (maxWait.isNegative() || maxWait.isZero())) {
      throw new IllegalArgumentException("max-wait must be positive, was " + maxWait);
    }
  }
}
