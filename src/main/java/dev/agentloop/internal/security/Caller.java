package dev.agentloop.internal.security;

import java.util.List;
import org.camunda.bpm.engine.IdentityService;
import org.camunda.bpm.engine.identity.Group;
import org.camunda.bpm.engine.identity.Tenant;

/** Who sent a request to {@code /api}, as the engine's authorization needs to know it. */
record Caller(String userId, List<String> groupIds, List<String> tenantIds) {

  /** The engine's user of this id with its groups and tenants (none where the engine has no such user). */
  static Caller of(IdentityService identity, String userId) {
    List<String> groups = identity.createGroupQuery().groupMember(userId).list().stream().map(Group::getId).toList();
    List<String> tenants = identity.createTenantQuery().userMember(userId).includingGroupsOfUser(true).list().stream()
        .map(Tenant::getId).toList();
    return new Caller(userId, groups, tenants);
  }
}
