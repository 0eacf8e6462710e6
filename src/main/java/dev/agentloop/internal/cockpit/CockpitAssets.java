package dev.agentloop.internal.cockpit;

import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.camunda.bpm.cockpit.plugin.resource.AbstractCockpitPluginRootResource;
import org.camunda.bpm.engine.rest.exception.RestException;
import org.camunda.bpm.webapp.plugin.spi.AppPlugin;
import org.springframework.core.env.Environment;
import org.springframework.web.context.WebApplicationContext;
import org.springframework.web.context.support.WebApplicationContextUtils;

/**
 * Serves the plugin's files at {@code <webapps>/api/cockpit/plugin/agentloop/static/app/...}: the ES
 * modules of {@code plugin-webapp/agentloop/app/} and {@code settings.js}, made per request from the
 * application's settings (where AgentLoop's API is, whether AgentLoop is on). Camunda serves only the
 * files a plugin names, so a new module of the plugin must be added to {@link #MODULES}. With AgentLoop
 * switched off, none of them is served (see {@link #getAsset}).
 */
@Path("plugin/" + AgentLoopCockpitPlugin.ID)
public class CockpitAssets extends AbstractCockpitPluginRootResource {

  static final String SETTINGS = "app/settings.js";
  static final String ENTRY = "app/plugin.js";
  static final String STYLE = "app/plugin.css";
  static final List<String> MODULES = List.of(ENTRY, STYLE, "app/api.js", "app/cost-words.js",
      "app/dom.js", "app/conversation.js", "app/conversation-view.js",
      "app/edit-text.js", "app/live-step.js", "app/prompt-view.js", "app/run-page.js", "app/runs-tab.js",
      "app/step-editor.js", "app/step-tree.js", "app/trace-tab.js", "app/trace-view.js", "app/tree-layout.js",
      "app/words.js", "app/child-runs.js", "app/turn-redo.js", "app/versions-tab.js", "app/migration-words.js",
      "app/evaluations-tab.js", "app/evaluation-view.js", "app/evaluation-form.js", "app/evaluation-words.js",
      "app/cockpit-tab.js",
      SETTINGS);

  public CockpitAssets() {
    super(AgentLoopCockpitPlugin.ID);
  }

  @Override
  protected List<String> getAllowedAssets() {
    return MODULES;
  }

  /**
   * With {@code agentloop.enabled=false} only the plugin's entry and style sheet are served, both empty: Cockpit
   * lists the plugin through the SPI whatever the setting and loads these two (a 404 would keep its page from
   * loading); nothing else of the plugin is served. (Camunda reads the allowed files once, before the settings
   * can be read, so it is decided here, per request.)
   */
  @Override
  public Response getAsset(String file) {
    if (!enabled(environment()) && !ENTRY.equals(file) && !STYLE.equals(file)) {
      throw new RestException(Response.Status.NOT_FOUND, "AgentLoop is switched off in this application"
          + " (agentloop.enabled=false): its Cockpit plugin serves nothing");
    }
    return super.getAsset(file);
  }

  @Override
  protected InputStream getPluginAssetAsStream(AppPlugin plugin, String fileName) {
    Environment environment = environment();
    if (!enabled(environment)) {
      return text(ENTRY.equals(fileName) ? "// AgentLoop is switched off here (agentloop.enabled=false)\nexport default [];\n"
          : "/* AgentLoop is switched off here (agentloop.enabled=false) */\n");
    }
    if (SETTINGS.equals(fileName)) {
      return text(settings(environment));
    }
    return super.getPluginAssetAsStream(plugin, fileName);
  }

  private static InputStream text(String text) {
    return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The application's settings; {@code null} outside a Spring web application. */
  private Environment environment() {
    WebApplicationContext context = WebApplicationContextUtils.getWebApplicationContext(servletContext);
    return context == null ? null : context.getEnvironment();
  }

  private static boolean enabled(Environment environment) {
    return environment == null || environment.getProperty("agentloop.enabled", Boolean.class, true);
  }

  /** An ES module with what the plugin must know of this application. */
  private String settings(Environment environment) {
    boolean enabled = enabled(environment);
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
