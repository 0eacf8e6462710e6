package com.example;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * AgentLoop's check that the example host it is compiled into, main and test classes, uses only AgentLoop's API:
 * {@code dev.agentloop.api} (what a host calls) and {@code dev.agentloop.spi} (what a host implements). Every other
 * package of AgentLoop is internal and may change in any version. One source for every example (each pom adds this
 * folder as a test source), so that the rule is written once; a host of its own does not need it.
 */
@AnalyzeClasses(packages = "com.example")
class UsesOnlyAgentLoopsApiTest {

  private static final ArchRule USES_ONLY_THE_API = noClasses()
      .that().resideInAPackage("com.example..")
      .should().dependOnClassesThat(resideInAPackage("dev.agentloop..")
          .and(resideOutsideOfPackages("dev.agentloop.api..", "dev.agentloop.spi..")))
      .because("a host compiles against dev.agentloop.api and dev.agentloop.spi only; the rest is internal");

  @ArchTest
  static void uses_only_agentloops_api(JavaClasses classes) {
    USES_ONLY_THE_API.check(classes);
  }
}
