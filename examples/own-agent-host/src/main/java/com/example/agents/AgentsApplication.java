package com.example.agents;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Camunda application with an agent of its own under AgentLoop's default key, react-agent. */
@SpringBootApplication
public class AgentsApplication {

  public static void main(String[] args) {
    SpringApplication.run(AgentsApplication.class, args);
  }
}
