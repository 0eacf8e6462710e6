package dev.agentloop.security;

import java.util.List;

/** Who sent a request to {@code /api}, as the engine's authorization needs to know it. */
record Caller(String userId, List<String> groupIds, List<String> tenantIds) {}
