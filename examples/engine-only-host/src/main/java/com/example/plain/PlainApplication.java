package com.example.plain;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A Camunda application with the engine only: no webapps, no engine REST API. */
@SpringBootApplication
public class PlainApplication {

  public static void main(String[] args) {
    SpringApplication.run(PlainApplication.class, args);
  }
}
