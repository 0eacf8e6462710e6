package dev.agentloop.internal.web;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Type;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.http.converter.HttpMessageConverter;
import org.springframework.http.converter.json.Jackson2ObjectMapperBuilder;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * AgentLoop's REST contract in JSON, whatever the application's {@code spring.jackson.*} settings or
 * its own {@code ObjectMapper} say: camelCase names, ISO-8601 dates, an unknown field in a request
 * body refused (a misspelt or misplaced field is never silently dropped), and a value of the wrong JSON type refused
 * rather than converted (a number is no text, text no number, {@code 1.5} no whole number). The converter takes part only
 * in requests that Spring MVC mapped to one of AgentLoop's controllers (this package), and sits right
 * before the application's own JSON converter, which keeps every other request of the application.
 * Thread-safe: the mapper is configured once and only used afterwards.
 */
final class ApiJson extends MappingJackson2HttpMessageConverter {

  ApiJson() {
    super(mapper());
  }

  /** The mapper of AgentLoop's API: Spring's defaults plus Spring Boot's date defaults, never the host's. */
  static ObjectMapper mapper() {
    ObjectMapper mapper = Jackson2ObjectMapperBuilder.json()
        .featuresToEnable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        // a value is read as what it is: "5" is no number, 1.5 no whole number
        .featuresToDisable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS, SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS,
            DeserializationFeature.ACCEPT_FLOAT_AS_INT, MapperFeature.ALLOW_COERCION_OF_SCALARS)
        .build();
    // and 5 or true is no text
    mapper.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
    return mapper;
  }

  /** Puts the converter in front of the first JSON converter of Spring MVC's list. */
  static WebMvcConfigurer installer() {
    return new WebMvcConfigurer() {
      @Override
      public void extendMessageConverters(List<HttpMessageConverter<?>> converters) {
        int json = 0;
        while (json < converters.size() && !(converters.get(json) instanceof MappingJackson2HttpMessageConverter)) {
          json++;
        }
        converters.add(json, new ApiJson());
      }
    };
  }

  @Override
  public boolean canRead(Class<?> clazz, MediaType mediaType) {
    return forAgentLoop() && super.canRead(clazz, mediaType);
  }

  @Override
  public boolean canRead(Type type, Class<?> contextClass, MediaType mediaType) {
    return forAgentLoop() && super.canRead(type, contextClass, mediaType);
  }

  @Override
  public boolean canWrite(Class<?> clazz, MediaType mediaType) {
    return forAgentLoop() && super.canWrite(clazz, mediaType);
  }

  @Override
  public boolean canWrite(Type type, Class<?> clazz, MediaType mediaType) {
    return forAgentLoop() && super.canWrite(type, clazz, mediaType);
  }

  /** Whether the current request was mapped to a handler of AgentLoop's API (its errors included). */
  private static boolean forAgentLoop() {
    if (!(RequestContextHolder.getRequestAttributes() instanceof ServletRequestAttributes attributes)) {
      return false;
    }
    HttpServletRequest request = attributes.getRequest();
    return request.getAttribute(HandlerMapping.BEST_MATCHING_HANDLER_ATTRIBUTE) instanceof HandlerMethod handler
        && handler.getBeanType().getPackageName().equals(ApiJson.class.getPackageName());
  }
}
