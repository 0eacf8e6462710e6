package dev.agentloop.internal.web;

import dev.agentloop.internal.security.AgentOwner;
import dev.agentloop.internal.security.AgentOwnership;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Who owns an agent's key ({@link AgentOwnership}): {@code GET /api/agents/{key}/owner} for any authenticated user
 * (it names a group, nothing of any run); handing the key to a group ({@code PUT}, body {@code {"group": "support"}})
 * or back to the application ({@code DELETE}) for engine administrators.
 */
@RestController
@RequestMapping(path = "${agentloop.api.base-path}/agents/{key}/owner", produces = "application/json")
class AgentOwnerController {

  private final AgentOwnership owners;

  AgentOwnerController(AgentOwnership owners) {
    this.owners = owners;
  }

  @GetMapping
  AgentOwner owner(@PathVariable String key) {
    return owners.owner(key);
  }

  /** Hands the key to the group: its analysts deploy new versions of it from now on. */
  @PutMapping(consumes = "application/json")
  AgentOwner handTo(@PathVariable String key, @Valid @RequestBody OwnerRequest body) {
    try {
      return owners.handTo(key, body.group());
    } catch (IllegalArgumentException e) {
      throw new InvalidParameterException(e.getMessage());
    }
  }

  /** Hands the key back to the application: no analyst deploys it any more. */
  @DeleteMapping
  AgentOwner handBack(@PathVariable String key) {
    return owners.handBack(key);
  }

  /**
   * Body of {@code PUT /api/agents/{key}/owner}.
   *
   * @param group the Camunda group that owns the key from now on
   */
  record OwnerRequest(
      @NotBlank(message = "must name a group, e.g. support") @Size(max = 255, message = "must be at most 255 characters")
      String group) {}
}
