package com.example.invoices;

import java.time.LocalDate;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/** The team's own API under /api, in the team's snake_case. */
@RestController
@RequestMapping("/api/invoices")
class InvoiceController {

  record NewInvoice(String customerName, long amountCents) {}

  record Invoice(String customerName, long amountCents, LocalDate dueDate) {}

  @PostMapping
  Invoice create(@RequestBody NewInvoice invoice) {
    return new Invoice(invoice.customerName(), invoice.amountCents(), LocalDate.of(2026, 12, 31));
  }
}
