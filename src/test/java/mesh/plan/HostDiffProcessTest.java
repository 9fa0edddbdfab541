package mesh.plan;

import static mesh.model.Specs.component;
import static mesh.plan.HostDiffTest.assertDiffCount;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;
import org.junit.jupiter.api.Test;

/** HostDiffProcessTest: processes are compared like containers, by their v3 digest, and a change of kind is a replace. */
class HostDiffProcessTest {

    static final String ADDRESS = "10.77.0.11";
    static final String BUNDLE = "it/web@sha256:" + "ab".repeat(32);
    static final ComponentSpec PROC = component("web.app").module("web").bundle(BUNDLE).port(8080)
            .host("db.internal", "10.77.0.12").build();
    static final ComponentSpec BOX = component("web.box").module("web").build();

    static ObservedContainer process(ComponentSpec c, boolean running) {
        ContainerRequest r = ContainerRequest.of(c, ADDRESS);
        return new ObservedContainer("process:42", c.name(), c.module(), SpecDigest.of(r), SpecDigest.canonical("v3", r),
                0, running, List.of(), true);
    }

    static ObservedContainer container(ComponentSpec c) {
        ContainerRequest r = ContainerRequest.of(c, ADDRESS);
        return new ObservedContainer("id-" + c.name(), c.name(), c.module(), SpecDigest.of(r), SpecDigest.canonical("v3", r),
                1, true, List.of(ADDRESS));
    }

    static Declaration declaration(ComponentSpec... components) {
        return new Declaration("n1", ADDRESS, 2, List.of(components), "http://10.77.0.11:5000");
    }

    @Test
    void aRunningProcessOfTheSameSpecIsKeptBesideItsContainer() {
        assertDiffCount(HostDiff.between(declaration(PROC, BOX), List.of(process(PROC, true), container(BOX))), 0, 0, 0, 0, 2);
    }

    @Test
    void anEndedProcessIsStartedAndAnUndeclaredOneRemoved() {
        HostPlan plan = HostDiff.between(declaration(PROC), List.of(process(PROC, false), process(component("web.old")
                .module("web").bundle(BUNDLE).build(), true)));
        assertDiffCount(plan, 0, 0, 1, 1, 0);
        assertEquals("web.old", plan.remove().get(0).name());
    }

    @Test
    void aNewBundleDigestOrMovedBoundNameReplacesExactlyThatProcess() {
        ComponentSpec newBundle = component("web.app").module("web").bundle("it/web@sha256:" + "cd".repeat(32)).port(8080)
                .host("db.internal", "10.77.0.12").build();
        HostPlan plan = HostDiff.between(declaration(newBundle, BOX), List.of(process(PROC, true), container(BOX)));
        assertDiffCount(plan, 0, 1, 0, 0, 1);
        assertEquals(List.of("bundle"), plan.replace().get(0).fields());
        ComponentSpec moved = component("web.app").module("web").bundle(BUNDLE).port(8080).host("db.internal", "10.77.0.13").build();
        assertEquals(List.of("hosts"), HostDiff.between(declaration(moved, BOX), List.of(process(PROC, true), container(BOX)))
                .replace().get(0).fields());
    }

    @Test
    void aContainerThatBecomesAProcessIsReplacedAndATwinOfTheOtherKindRemoved() {
        ComponentSpec asContainer = component("web.app").module("web").port(8080).build();
        HostPlan plan = HostDiff.between(declaration(PROC), List.of(container(asContainer)));
        assertDiffCount(plan, 0, 1, 0, 0, 0);
        assertEquals(List.of("a container becomes a process"), plan.replace().get(0).fields());
        HostPlan both = HostDiff.between(declaration(PROC), List.of(container(asContainer), process(PROC, true)));
        assertDiffCount(both, 0, 0, 0, 1, 1);
        assertEquals("id-web.app", both.remove().get(0).id());
    }
}
