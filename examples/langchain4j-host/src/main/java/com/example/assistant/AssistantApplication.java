package com.example.assistant;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Camunda application that uses LangChain4j's Spring Boot starter and adds AgentLoop. */
@SpringBootApplication
public class AssistantApplication {

  public static void main(String[] args) {
    SpringApplication.run(AssistantApplication.class, args);
  }
}
