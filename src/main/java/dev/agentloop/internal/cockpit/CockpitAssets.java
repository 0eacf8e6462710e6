package dev.agentloop.internal.cockpit;

import jakarta.ws.rs.Path;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.camunda.bpm.cockpit.plugin.resource.AbstractCockpitPluginRootResource;
import org.camunda.bpm.webapp.plugin.spi.AppPlugin;
import org.springframework.core.env.Environment;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.support.WebApplicationContextUtils;

/**
 * Serves the plugin's files at {@code <webapps>/api/cockpit/plugin/agentloop/static/app/...}: the ES
 * modules of {@code plugin-webapp/agentloop/app/} and {@code settings.js}, made per request from the
 * application's settings (where AgentLoop's API is, whether AgentLoop is on). Camunda serves only the
 * files a plugin names, so a new module of the plugin must be added to {@link #MODULES}.
 */
@Path("plugin/" + AgentLoopCockpitPlugin.ID)
public class CockpitAssets extends AbstractCockpitPluginRootResource {

  static final String SETTINGS = "app/settings.js";
  static final List<String> MODULES = List.of("app/plugin.js", "app/plugin.css", "app/api.js", "app/cost-words.js",
      "app/dom.js", "app/conversation.js", "app/conversation-view.js",
      "app/edit-text.js", "app/live-step.js", "app/prompt-view.js", "app/run-page.js", "app/runs-tab.js",
      "app/step-editor.js", "app/step-tree.js", "app/trace-tab.js", "app/trace-view.js", "app/tree-layout.js",
      "app/words.js", "app/child-runs.js", "app/turn-redo.js", "app/versions-tab.js", "app/migration-words.js",
      SETTINGS);

  public CockpitAssets() {
    super(AgentLoopCockpitPlugin.ID);
  }

  @Override
  protected List<String> getAllowedAssets() {
    return MODULES;
  }

  @Override
  protected InputStream getPluginAssetAsStream(AppPlugin plugin, String fileName) {
    if (SETTINGS.equals(fileName)) {
      return new ByteArrayInputStream(settings().getBytes(StandardCharsets.UTF_8));
    }
    return super.getPluginAssetAsStream(plugin, fileName);
  }

  /** An ES module with what the plugin must know of this application. */
  private String settings() {
    WebApplicationContext context = WebApplicationContextUtils.getWebApplicationContext(servletContext);
    Environment environment = context == null ? null : context.getEnvironment();
    boolean enabled = environment == null || environment.getProperty("agentloop.enabled", Boolean.class, true);
    String basePath = environment == null ? "/api" : environment.getProperty("agentloop.api.base-path", "/api");
    // the operator is told when the answers come from the scripted demo model, not from a real one
    boolean scripted = environment != null
        && "scripted".equalsIgnoreCase(environment.getProperty("agentloop.llm.provider", "scripted").strip());
    return "// AgentLoop's settings in this application, made by " + getClass().getName() + "\n"
        + "export default " + json(enabled, servletContext.getContextPath() + basePath, scripted) + ";\n";
  }

  private static String json(boolean enabled, String apiPath, boolean scriptedModel) {
    // the base path is validated (letters, digits, '/', '-', '.', '_', '~'), the context path is the container's
    String escaped = apiPath.replace("\\", "\\\\").replace("\"", "\\\"");
    return "{\"enabled\": " + enabled + ", \"api\": \"" + escaped + "\", \"scriptedModel\": " + scriptedModel + "}";
  }
}
