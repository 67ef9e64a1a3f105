package dev.paddock;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Set;

/**
 * The package rules (packages by feature; features never import ui, api or cli), checked on the compiled main
 * classes. Packages that do not exist yet (policy, approval, merge, checkpoint) are named so the rules
 * hold for them as soon as they appear.
 */
@AnalyzeClasses(packages = "dev.paddock", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    private static final String[] FEATURES = {
        "dev.paddock.sandbox..",
        "dev.paddock.worktree..",
        "dev.paddock.container..",
        "dev.paddock.repo..",
        "dev.paddock.events..",
        "dev.paddock.status..",
        "dev.paddock.store..",
        "dev.paddock.settings..",
        "dev.paddock.common..",
        "dev.paddock.policy..",
        "dev.paddock.approval..",
        "dev.paddock.merge..",
        "dev.paddock.checkpoint..",
        "dev.paddock.agent..",
        "dev.paddock.isolation..",
        "dev.paddock.compare..",
        "dev.paddock.diff..",
        "dev.paddock.publish..",
        "dev.paddock.review..",
        "dev.paddock.layer.."
    };

    @ArchTest
    static final ArchRule featurePackagesDoNotDependOnTheUiApiOrCli = noClasses()
            .that()
            .resideInAnyPackage(FEATURES)
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("dev.paddock.ui..", "dev.paddock.api..", "dev.paddock.cli..")
            .because("ui, api and cli are thin layers over the same services; a feature that knew one of"
                    + " them could not be used by the other two (as in JabRef ADR 0062)");

    @ArchTest
    static final ArchRule featurePackagesDoNotDependOnTheRootWiring = noClasses()
            .that()
            .resideInAnyPackage(FEATURES)
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.paddock")
            .because("Paddock, Wiring and Host build and connect the services; a service that reached back"
                    + " for them would hide its real dependencies and tie every test to the whole graph");

    @ArchTest
    static final ArchRule onlyTheContainerPackageUsesDockerJava = noClasses()
            .that()
            .resideOutsideOfPackage("dev.paddock.container..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("com.github.dockerjava..")
            .because("one owner per library: Docker engine details (and docker-java's slow start and SLF4J 1.7"
                    + " baggage) stay behind the container package, so Paddock works where Docker is absent");

    @ArchTest
    static final ArchRule theContainerPackageKnowsNoOtherFeature = noClasses()
            .that()
            .resideInAPackage("dev.paddock.container..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.paddock.sandbox..",
                    "dev.paddock.worktree..",
                    "dev.paddock.repo..",
                    "dev.paddock.status..",
                    "dev.paddock.store..",
                    "dev.paddock.events..",
                    "dev.paddock.settings..")
            .because("the container package only speaks to the Docker engine (images, containers, logs); the isolation"
                    + " package decides what a run's container is (ContainerPlan), so docker-java stays in one"
                    + " place that a remote or second engine can replace");

    @ArchTest
    static final ArchRule sandboxAndMergeUseOnlyTheIsolationInterface = noClasses()
            .that()
            .resideInAnyPackage("dev.paddock.sandbox..", "dev.paddock.merge..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.paddock.isolation.host..",
                    "dev.paddock.isolation.bubblewrap..",
                    "dev.paddock.isolation.container..")
            .because("the supervisor and the merge queue's test runner drive every tier through IsolationRuntime and"
                    + " its value types (docs/decisions/0012-isolation-runtime.md); the tier picks the runtime once,"
                    + " so a remote engine or Kubernetes is a new implementation, not a new branch in them");

    @ArchTest
    static final ArchRule theIsolationPackageKnowsNoSandboxMergeOrFrontEnd = noClasses()
            .that()
            .resideInAPackage("dev.paddock.isolation..")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.paddock.sandbox..",
                    "dev.paddock.merge..",
                    "dev.paddock.ui..",
                    "dev.paddock.api..",
                    "dev.paddock.cli..")
            .because("isolation runs a command described by a RunSpec and knows nothing of sandboxes, merge entries"
                    + " or who asked; the sandbox and merge packages say what to run, so both can use it and a test"
                    + " of a runtime needs no store");

    @ArchTest
    static final ArchRule theIsolationInterfaceKnowsNoImplementation = noClasses()
            .that()
            .resideInAPackage("dev.paddock.isolation")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage(
                    "dev.paddock.isolation.host..",
                    "dev.paddock.isolation.bubblewrap..",
                    "dev.paddock.isolation.container..")
            .because("the interface and its value types sit below every runtime; Wiring builds the runtimes and hands"
                    + " them over as IsolationRuntimes");

    @ArchTest
    static final ArchRule onlyWorktreeMergeCheckpointAndDiffUseJGit = noClasses()
            .that()
            .resideOutsideOfPackages(
                    "dev.paddock.worktree..", "dev.paddock.merge..", "dev.paddock.checkpoint..", "dev.paddock.diff..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("org.eclipse.jgit..")
            .because("one owner per library: git access goes through the packages that know JGit's gaps"
                    + " (no worktree add/list/remove; it checks out a branch used by another worktree); diff uses its"
                    + " diff machinery and shows only its own values");

    @ArchTest
    static final ArchRule onlyTheUiUsesJavaFx = noClasses()
            .that()
            .resideOutsideOfPackage("dev.paddock.ui..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("javafx..")
            .because("the services, the API and the CLI must run headless (paddock serve, paddock status) and"
                    + " be testable without an FX toolkit; the UI gets immutable snapshots from them");

    @ArchTest
    static final ArchRule onlyTheSandboxPackageBuildsTransitions = noClasses()
            .that()
            .resideOutsideOfPackage("dev.paddock.sandbox")
            .should()
            .dependOnClassesThat()
            .haveNameMatching("dev\\.paddock\\.sandbox\\.Transition(\\$.*)?")
            .because("a sandbox's state moves only along the lifecycle's named operations (SandboxLifecycle:"
                    + " markMerged, needsHuman, ...), each one compare-and-set with its event; a package that built"
                    + " its own Transition could set any column with any message and bypass what the lifecycle"
                    + " promises");

    @ArchTest
    static final ArchRule everySandboxMoveIsANamedOperation = noClasses()
            .that()
            .resideInAPackage("dev.paddock.sandbox")
            .and()
            .doNotHaveFullyQualifiedName("dev.paddock.sandbox.SandboxLifecycle")
            .and()
            .doNotHaveFullyQualifiedName("dev.paddock.sandbox.SandboxStore")
            .and()
            .haveNameNotMatching("dev\\.paddock\\.sandbox\\.Transition(\\$.*)?")
            .should()
            .dependOnClassesThat()
            .haveNameMatching("dev\\.paddock\\.sandbox\\.Transition(\\$.*)?")
            .because("inside sandbox too, the supervisor, the reconciler, removal and the engine watch move a"
                    + " sandbox through SandboxLifecycle's operations: one class holds every edge the code takes,"
                    + " with its columns and its words, and SandboxStore applies them");

    /** MergeStore's methods that write merge entries, their conflicted files or a repository's merge settings. */
    private static final Set<String> MERGE_WRITES = Set.of(
            "insert",
            "move",
            "moveAndRead",
            "update",
            "set",
            "replaceConflicts",
            "resolve",
            "unresolve",
            "event",
            "setSettings",
            "setRegenerateCommand");

    @ArchTest
    static final ArchRule onlyTheMergePackageWritesMergeRows = noClasses()
            .that()
            .resideOutsideOfPackage("dev.paddock.merge")
            .should()
            .callMethodWhere(new DescribedPredicate<JavaMethodCall>("a method of MergeStore that writes") {
                @Override
                public boolean test(JavaMethodCall call) {
                    return call.getTargetOwner().getFullName().equals("dev.paddock.merge.MergeStore")
                            && MERGE_WRITES.contains(call.getName());
                }
            })
            .because("a merge entry changes only through the merge package (queue, attempt, recovery, services):"
                    + " each move a compare-and-set on its state with its event, as ADR 0001 needs for base;"
                    + " ui, api and cli go through MergeService");

    @ArchTest
    static final ArchRule onlyMergeStoreTurnsMergeColumnsIntoSql = noClasses()
            .that()
            .doNotHaveFullyQualifiedName("dev.paddock.merge.MergeStore")
            .and()
            .doNotHaveFullyQualifiedName("dev.paddock.merge.MergeChange")
            .should()
            .callMethodWhere(new DescribedPredicate<JavaMethodCall>("MergeChange's SQL names") {
                @Override
                public boolean test(JavaMethodCall call) {
                    return call.getTargetOwner().getName().startsWith("dev.paddock.merge.MergeChange")
                            && call.getName().equals("sql");
                }
            })
            .because("callers name typed columns (MergeChange.STEP, ...); the SQL names of merge_requests and the"
                    + " mapping of its rows live in MergeStore alone");

    @ArchTest
    static final ArchRule featurePackagesAreFreeOfCycles = slices().matching("dev.paddock.(*)..")
            .should()
            .beFreeOfCycles()
            .because("features are layered (store below events below worktree below repo below status, ...);"
                    + " a cycle would make them impossible to build, test or reason about one at a time."
                    + " The root package (Paddock, Wiring, Host) wires everything and is not in any slice");

    @ArchTest
    static final ArchRule viewModelsDoNotUseTheSceneGraph = noClasses()
            .that()
            .resideInAPackage("dev.paddock.ui..")
            .and()
            .haveSimpleNameEndingWith("ViewModel")
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("javafx.scene..", "javafx.stage..")
            .because("a view model is state and commands in properties, tested with plain JUnit against its backend;"
                    + " nodes, stages and scenes belong to its view, which binds to it");

    @ArchTest
    static final ArchRule theUiSeesPaddockOnlyThroughItsBackends = noClasses()
            .that()
            .resideInAPackage("dev.paddock.ui..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("dev.paddock.store..")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.paddock.Host")
            .orShould()
            .dependOnClassesThat()
            .haveFullyQualifiedName("dev.paddock.Wiring")
            .orShould()
            .dependOnClassesThat(com.tngtech.archunit.base.DescribedPredicate.describe(
                    "are in dev.paddock.worktree other than the ChangeList value",
                    c -> c.getPackageName().startsWith("dev.paddock.worktree")
                            && !c.getName().startsWith("dev.paddock.worktree.WorktreeManager$ChangeList")))
            .because("the panel gets one typed backend per view, built in Wiring (PanelBackends); a view that reached"
                    + " the store, git or the running Host itself would hide what it needs, bypass the owning"
                    + " package's API and tie its tests to the whole graph. WorktreeManager.ChangeList is only a"
                    + " value the sandbox details show");

    @ArchTest
    static final ArchRule uiFeaturesAreFreeOfCycles = slices().matching("dev.paddock.ui.(*)..")
            .should()
            .beFreeOfCycles()
            .because("each UI feature (shell, dashboard, ...) builds on ui.common and the theme, not on another"
                    + " feature that builds on it");
}
