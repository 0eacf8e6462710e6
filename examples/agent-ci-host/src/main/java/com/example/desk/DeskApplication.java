package com.example.desk;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Example Shop's Camunda application with its order desk agent (processes/order-desk.bpmn). */
@SpringBootApplication
public class DeskApplication {

  public static void main(String[] args) {
    SpringApplication.run(DeskApplication.class, args);
  }
}
