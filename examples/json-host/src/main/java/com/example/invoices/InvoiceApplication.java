package com.example.invoices;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** A team's own Camunda application with its own JSON conventions; AgentLoop comes in as a dependency. */
@SpringBootApplication
public class InvoiceApplication {

  public static void main(String[] args) {
    SpringApplication.run(InvoiceApplication.class, args);
  }
}
