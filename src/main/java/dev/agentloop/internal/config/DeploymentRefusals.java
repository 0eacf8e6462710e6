package dev.agentloop.internal.config;

import java.util.ArrayList;
import java.util.List;
import org.camunda.bpm.engine.BadUserRequestException;
import org.camunda.bpm.engine.ParseException;
import org.camunda.bpm.engine.impl.cfg.ProcessEngineConfigurationImpl;
import org.camunda.bpm.engine.impl.interceptor.Command;
import org.camunda.bpm.engine.impl.interceptor.CommandInterceptor;

/**
 * Keeps the deployments AgentLoop refuses on purpose (a diagram that breaks its rules: a bad setting, an unknown tool,
 * a cycle of agents) out of the engine's error log. The engine turns the refusal into a {@link ParseException}, which
 * the engine REST API answers {@code 400} with every problem named, as it should; but Camunda logs every exception that
 * ends a command at ERROR with its stack trace ({@code ENGINE-16004}), except bad user requests, which it logs at debug
 * level. So inside the command context the refusal travels as a bad user request ({@link Quiet}), and around it, where
 * the caller gets it, it is the engine's {@link ParseException} again, unchanged. A parse that failed for any other
 * reason is left as Camunda makes it. Installed on the engine's interceptor chains by {@link #install}. Thread-safe:
 * the mark of a refusal lives on the refusing thread.
 */
final class DeploymentRefusals {

  /** Set by AgentLoop's checks on the parsing thread right before they refuse a diagram. */
  private static final ThreadLocal<Boolean> REFUSED_ON_PURPOSE = new ThreadLocal<>();

  private DeploymentRefusals() {}

  /** Marks the parse under way as refused by AgentLoop: its failure is expected, not an error of the engine. */
  static void refusedOnPurpose() {
    REFUSED_ON_PURPOSE.set(Boolean.TRUE);
  }

  static void install(ProcessEngineConfigurationImpl configuration) {
    configuration.setCustomPostCommandInterceptorsTxRequired(
        with(configuration.getCustomPostCommandInterceptorsTxRequired(), new Inside()));
    configuration.setCustomPostCommandInterceptorsTxRequiresNew(
        with(configuration.getCustomPostCommandInterceptorsTxRequiresNew(), new Inside()));
    configuration.setCustomPreCommandInterceptorsTxRequired(
        with(configuration.getCustomPreCommandInterceptorsTxRequired(), new Outside()));
    configuration.setCustomPreCommandInterceptorsTxRequiresNew(
        with(configuration.getCustomPreCommandInterceptorsTxRequiresNew(), new Outside()));
  }

  private static List<CommandInterceptor> with(List<CommandInterceptor> interceptors, CommandInterceptor added) {
    List<CommandInterceptor> all = interceptors == null ? new ArrayList<>() : new ArrayList<>(interceptors);
    all.add(added);
    return all;
  }

  /** The refusal as a bad user request inside the command context, so that the context logs it at debug level. */
  private static final class Inside extends CommandInterceptor {
    @Override
    public <T> T execute(Command<T> command) {
      try {
        return next.execute(command);
      } catch (ParseException refused) {
        if (REFUSED_ON_PURPOSE.get() != null) {
          throw new Quiet(refused);
        }
        throw refused;
      }
    }
  }

  /** The engine's own refusal again for the caller, who may read its problems. */
  private static final class Outside extends CommandInterceptor {
    @Override
    public <T> T execute(Command<T> command) {
      try {
        return next.execute(command);
      } catch (Quiet quiet) {
        throw quiet.refused;
      } finally {
        REFUSED_ON_PURPOSE.remove();
      }
    }
  }

  /** A refusal of AgentLoop's on its way out of the command context. */
  private static final class Quiet extends BadUserRequestException {
    private final ParseException refused;

    Quiet(ParseException refused) {
      super(refused.getMessage(), refused);
      this.refused = refused;
    }
  }
}
