package dev.agentloop;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import dev.agentloop.internal.trace.StepStore;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The packages of the library depend on each other in one direction, as STYLE.md writes it down: {@link #LEVELS},
 * top to bottom, with {@code config} on top (it wires and binds everything, and nothing imports it), {@code history}
 * below it alone (the engine plugin installs it), and {@code cockpit} on its own (Camunda finds it through its plugin
 * SPI). {@code api} (what a host calls) and {@code spi} (what a host implements) are below them all: every package may
 * use them, and they use none of AgentLoop's but each other, so that what a host sees never drags an internal type
 * along. A new package must be given its level here. Packages on one level are peers that do not know each other. A
 * new import against the direction fails the build here, naming the classes.
 * (Rules as methods, not fields: Surefire's {@code -Dtest=ArchitectureTest} selects methods only.)
 */
@AnalyzeClasses(packages = "dev.agentloop", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {

  private static final String AGENTLOOP = "dev.agentloop.";
  private static final String INTERNAL = "dev.agentloop.internal.";

  /** The internal packages, top to bottom: a package may use those on the levels below its own, never above. */
  private static final List<List<String>> LEVELS = List.of(
      List.of("config"),
      List.of("web", "mcp"),
      List.of("events", "evaluation"),
      List.of("review"),
      List.of("resume"),
      List.of("security"),
      List.of("agent"),
      List.of("resilience", "worker", "telemetry"),
      List.of("llm", "tool", "trace"),
      List.of("async", "budget"));

  /** Outside the levels: installed by config alone, or found by Camunda on its own. */
  private static final List<String> APART = List.of("history", "cockpit");

  private static final ArchRule NO_PACKAGE_IMPORTS_A_PACKAGE_THAT_IMPORTS_IT_BACK =
      slices().matching("dev.agentloop.internal.(*)..").should().beFreeOfCycles();

  @ArchTest
  static void no_package_imports_a_package_that_imports_it_back(JavaClasses classes) {
    NO_PACKAGE_IMPORTS_A_PACKAGE_THAT_IMPORTS_IT_BACK.check(classes);
  }

  /** The same at every level: a package and its sub-package, or two sub-packages, never import each other both ways. */
  private static final ArchRule NO_CYCLE_AT_ANY_LEVEL =
      slices().matching("dev.agentloop.(**)").should().beFreeOfCycles();

  @ArchTest
  static void no_cycle_at_any_level(JavaClasses classes) {
    NO_CYCLE_AT_ANY_LEVEL.check(classes);
  }

  private static final ArchRule CONFIG_IS_IMPORTED_BY_NO_OTHER_PACKAGE = noClasses()
      .that().resideInAPackage(INTERNAL + "*..").and().resideOutsideOfPackage(INTERNAL + "config..")
      .should().dependOnClassesThat().resideInAPackage(INTERNAL + "config..")
      .because("config binds the properties into each feature's own settings record and hands it over;"
          + " features own their settings");

  @ArchTest
  static void config_is_imported_by_no_other_package(JavaClasses classes) {
    CONFIG_IS_IMPORTED_BY_NO_OTHER_PACKAGE.check(classes);
  }

  private static final ArchRule THE_COCKPIT_PLUGIN_STANDS_ALONE = noClasses()
      .that().resideInAPackage(INTERNAL + "cockpit..")
      .should().dependOnClassesThat().resideInAnyPackage(Stream.concat(
          allPackages().filter(name -> !name.equals(INTERNAL + "cockpit..")),
          Stream.of(AGENTLOOP + "api..", AGENTLOOP + "spi..")).toArray(String[]::new));

  @ArchTest
  static void the_cockpit_plugin_stands_alone(JavaClasses classes) {
    THE_COCKPIT_PLUGIN_STANDS_ALONE.check(classes);
  }

  private static final ArchRule EVERY_PACKAGE_HAS_ITS_PLACE = classes()
      .that().resideInAPackage(INTERNAL + "*..")
      .should().resideInAnyPackage(allPackages().toArray(String[]::new))
      .because("the layers below only judge the packages they name: a new one is placed in them first");

  @ArchTest
  static void every_package_has_its_place(JavaClasses classes) {
    EVERY_PACKAGE_HAS_ITS_PLACE.check(classes);
  }

  private static final ArchRule A_HOST_SEES_API_SPI_AND_THE_AUTO_CONFIGURATION = classes()
      .that().resideInAPackage("dev.agentloop..")
      .should().resideInAnyPackage(AGENTLOOP + "api..", AGENTLOOP + "spi..", AGENTLOOP + "autoconfigure..",
          AGENTLOOP + "internal..")
      .because("what a host may use is api (what it calls), spi (what it implements) and the auto-configuration"
          + " the starter names; everything else is internal and may change in any release");

  @ArchTest
  static void a_host_sees_api_spi_and_the_auto_configuration(JavaClasses classes) {
    A_HOST_SEES_API_SPI_AND_THE_AUTO_CONFIGURATION.check(classes);
  }

  private static final ArchRule THE_AUTO_CONFIGURATION_IS_IMPORTED_BY_NOTHING = noClasses()
      .that().resideInAPackage(AGENTLOOP + "internal..")
      .should().dependOnClassesThat().resideInAPackage(AGENTLOOP + "autoconfigure..")
      .because("the auto-configuration only switches AgentLoop on; what it brings must not depend on it");

  @ArchTest
  static void the_auto_configuration_is_imported_by_nothing(JavaClasses classes) {
    THE_AUTO_CONFIGURATION_IS_IMPORTED_BY_NOTHING.check(classes);
  }

  private static final ArchRule THE_HOST_API_USES_NOTHING_INTERNAL = noClasses()
      .that().resideInAnyPackage(AGENTLOOP + "api..", AGENTLOOP + "spi..")
      .should().dependOnClassesThat(resideInAPackage("dev.agentloop..")
          .and(resideOutsideOfPackages(AGENTLOOP + "api..", AGENTLOOP + "spi..")))
      .allowEmptyShould(true)
      .because("a host compiles against api and spi only: a type of theirs that named an internal one would make"
          + " the internal one part of the API");

  @ArchTest
  static void the_host_api_uses_nothing_internal(JavaClasses classes) {
    THE_HOST_API_USES_NOTHING_INTERNAL.check(classes);
  }

  private static final ArchRule AN_AGENTS_DEFINITION_USES_NOTHING_BUILT_ON_IT = noClasses()
      .that().resideInAPackage(INTERNAL + "agent.definition..")
      .should().dependOnClassesThat().resideInAnyPackage(INTERNAL + "agent.loop..", INTERNAL + "agent.run..",
          INTERNAL + "agent.compose..")
      .because("what an agent is (its settings, the agents it may call, its diagram's rules) is read by the loop,"
          + " the runs and the child runs; it needs none of them, so it can be read and checked on its own");

  @ArchTest
  static void an_agents_definition_uses_nothing_built_on_it(JavaClasses classes) {
    AN_AGENTS_DEFINITION_USES_NOTHING_BUILT_ON_IT.check(classes);
  }

  private static final ArchRule WHAT_A_STEP_HOLDS_KNOWS_NO_TABLE = noClasses()
      .that().resideInAnyPackage(INTERNAL + "trace.step..")
      .should().dependOnClassesThat().resideInAnyPackage(INTERNAL + "trace.schema..",
          INTERNAL + "trace.retention..")
      .because("what a step holds is plain data: the tables and their retention are the store's business");

  @ArchTest
  static void what_a_step_holds_knows_no_table(JavaClasses classes) {
    WHAT_A_STEP_HOLDS_KNOWS_NO_TABLE.check(classes);
  }

  private static final ArchRule REVIEWS_CHANGE_A_RUN_THROUGH_ONE_DOOR = noClasses()
      .that().resideInAPackage(INTERNAL + "review..")
      .should().callMethodWhere(DescribedPredicate.describe("a method of StepStore that writes",
          (JavaMethodCall call) -> call.getTargetOwner().isEquivalentTo(StepStore.class)
              && call.getName().matches("append|branch|rewind|raiseBudget|keepLate|copyPath|markEnded|createRun")))
      .because("a person's decision in a form changes the run through the resume service's door for forms"
          + " (InFlowChanges), as every change of a run goes through one door; reviews only read the store");

  @ArchTest
  static void reviews_change_a_run_through_one_door(JavaClasses classes) {
    REVIEWS_CHANGE_A_RUN_THROUGH_ONE_DOOR.check(classes);
  }

  private static final ArchRule REVIEWS_ONLY_READ_THE_TRACE = noClasses()
      .that().resideInAPackage(INTERNAL + "review..")
      .should().dependOnClassesThat().belongToAnyOf(StepStore.class)
      .because("reviews read runs and steps through StepReads; what they change goes through the resume service");

  @ArchTest
  static void reviews_only_read_the_trace(JavaClasses classes) {
    REVIEWS_ONLY_READ_THE_TRACE.check(classes);
  }

  private static final ArchRule DEPENDENCIES_RUN_ONE_WAY = layers();

  @ArchTest
  static void dependencies_run_one_way(JavaClasses classes) {
    DEPENDENCIES_RUN_ONE_WAY.check(classes);
  }

  /** Each package of a level may be used by the packages of the levels above it only. */
  private static LayeredArchitecture layers() {
    LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
    for (String name : Stream.concat(LEVELS.stream().flatMap(List::stream), APART.stream()).toList()) {
      layers = layers.layer(name).definedBy(INTERNAL + name + "..");
    }
    // below every other layer, which may all use them (THE_HOST_API_USES_NOTHING_INTERNAL keeps them below)
    layers = layers.optionalLayer("api").definedBy(AGENTLOOP + "api..")
        .optionalLayer("spi").definedBy(AGENTLOOP + "spi..")
        .whereLayer("cockpit").mayNotBeAccessedByAnyLayer()
        .whereLayer("history").mayOnlyBeAccessedByLayers("config");
    List<String> above = new ArrayList<>();
    for (List<String> level : LEVELS) {
      for (String name : level) {
        layers = above.isEmpty() ? layers.whereLayer(name).mayNotBeAccessedByAnyLayer()
            : layers.whereLayer(name).mayOnlyBeAccessedByLayers(above.toArray(String[]::new));
      }
      above.addAll(level);
    }
    return layers;
  }

  private static Stream<String> allPackages() {
    return Stream.concat(LEVELS.stream().flatMap(List::stream), APART.stream()).map(name -> INTERNAL + name + "..");
  }
}
