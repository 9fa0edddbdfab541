package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class InstallPlanTest {

    private static List<String> render(List<InstallPlan.Action> actions) {
        return actions.stream().map(a -> a.step().word() + (a.alreadyDone() ? " (done)" : "")).toList();
    }

    @Test
    void aFreshSeatRunsEveryStepInOrder() {
        assertEquals(List.of("preflight", "agent", "store", "registry", "bundle", "controller", "pivot", "config"),
                render(InstallPlan.plan(false, Set.of())));
    }

    @Test
    void aRerunAfterTheStoreResumesWithTheRegistryAndSkipsPreflightWhoseCheckMeshItselfNowFails() {
        assertEquals(List.of("preflight (done)", "agent (done)", "store (done)", "registry", "bundle", "controller",
                        "pivot", "config"),
                render(InstallPlan.plan(false, EnumSet.of(InstallStep.AGENT, InstallStep.STORE))));
    }

    @Test
    void aSecondRunOfAFinishedInstallDoesNothing() {
        List<InstallPlan.Action> plan = InstallPlan.plan(false, EnumSet.allOf(InstallStep.class));
        assertEquals(8, plan.stream().filter(InstallPlan.Action::alreadyDone).count());
    }

    @Test
    void aStepRecordedAfterOneNotDoneIsDoneAgain() {
        assertEquals(List.of("preflight (done)", "agent (done)", "store", "registry", "bundle", "controller", "pivot", "config"),
                render(InstallPlan.inOrder(InstallPlan.plan(false, EnumSet.of(InstallStep.AGENT, InstallStep.REGISTRY)))));
    }

    @Test
    void joiningRunsPreflightAgentAndJoin() {
        assertEquals(List.of("preflight", "agent", "join"), render(InstallPlan.plan(true, Set.of())));
    }

    @Test
    void aRebuildWritesTheKeysFirstLoadsTheStoreBeforeTheControllerAndAdoptsLast() {
        assertEquals(List.of("preflight", "keys", "agent", "store", "load", "registry", "bundle", "controller", "pivot",
                "config", "adopt"), render(InstallPlan.rebuild(Set.of())));
        assertEquals(List.of("preflight (done)", "keys (done)", "agent (done)", "store (done)", "load", "registry", "bundle",
                        "controller", "pivot", "config", "adopt"),
                render(InstallPlan.rebuild(EnumSet.of(InstallStep.KEYS, InstallStep.AGENT, InstallStep.STORE))));
    }
}
