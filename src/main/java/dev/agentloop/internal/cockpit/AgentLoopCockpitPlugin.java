package dev.agentloop.internal.cockpit;

import java.util.Set;
import org.camunda.bpm.cockpit.plugin.spi.impl.AbstractCockpitPlugin;

/**
 * AgentLoop's Cockpit plugin, registered through Camunda's plugin SPI
 * ({@code META-INF/services/org.camunda.bpm.cockpit.plugin.spi.CockpitPlugin}), so it shows in any
 * application's Cockpit whatever that application's own {@code config.js} says. Cockpit lists it
 * among its plugin packages and imports {@code app/plugin.js} (and {@code app/plugin.css}) from
 * {@code plugin-webapp/agentloop/} of this jar, served by {@link CockpitAssets}. Camunda creates it
 * with {@link java.util.ServiceLoader}, so it is public and has no Spring dependencies.
 */
public class AgentLoopCockpitPlugin extends AbstractCockpitPlugin {

  public static final String ID = "agentloop";

  @Override
  public String getId() {
    return ID;
  }

  @Override
  public Set<Class<?>> getResourceClasses() {
    return Set.of(CockpitAssets.class);
  }
}
