package com.example.secured;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A team's own Camunda application behind its own Spring Security; AgentLoop comes in as a dependency. */
@SpringBootApplication
public class SecuredApplication {

  public static void main(String[] args) {
    SpringApplication.run(SecuredApplication.class, args);
  }
}
