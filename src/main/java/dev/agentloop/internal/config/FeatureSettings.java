package dev.agentloop.internal.config;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Hands each feature its own settings record out of the bound {@link AgentLoopProperties}, so that the
 * features' configurations take {@code LlmSettings}, {@code ToolSettings} … and never import
 * {@code config}: dependencies run from config to the features only. Every record in {@code AgentLoopProperties}
 * is a bean, named {@code agentLoopSettings.<its key>}: a feature's new settings record needs no line here.
 */
class FeatureSettings implements ImportBeanDefinitionRegistrar, BeanFactoryAware {

  private BeanFactory beans;

  @Override
  public void setBeanFactory(BeanFactory beanFactory) {
    this.beans = beanFactory;
  }

  @Override
  public void registerBeanDefinitions(AnnotationMetadata importingClass, BeanDefinitionRegistry registry) {
    for (RecordComponent component : AgentLoopProperties.class.getRecordComponents()) {
      if (component.getType().isRecord()) {
        registry.registerBeanDefinition("agentLoopSettings." + component.getName(),
            definition(component.getType(), component.getAccessor()));
      }
    }
  }

  /** The bean of the settings record that the accessor reads, read when a feature first asks for it. */
  private <T> RootBeanDefinition definition(Class<T> type, Method accessor) {
    return new RootBeanDefinition(type, () -> type.cast(read(accessor)));
  }

  private Object read(Method accessor) {
    try {
      return accessor.invoke(beans.getBean(AgentLoopProperties.class));
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read agentloop." + accessor.getName() + " of the bound settings", e);
    }
  }
}
