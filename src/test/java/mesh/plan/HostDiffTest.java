package mesh.plan;

import static mesh.model.Specs.component;
import static mesh.model.Specs.declaration;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import mesh.model.ComponentSpec;
import mesh.model.ContainerRequest;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.SpecDigest;
import mesh.model.Specs;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class HostDiffTest {

    static ObservedContainer running(ComponentSpec c) {
        ContainerRequest r = ContainerRequest.of(c, null);
        return new ObservedContainer("id-" + c.name(), c.name(), c.module(), SpecDigest.of(r),
                SpecDigest.canonical(SpecDigest.CURRENT_VERSION, r), 1, true);
    }

    static ObservedContainer stopped(ComponentSpec c) {
        ContainerRequest r = ContainerRequest.of(c, null);
        return new ObservedContainer("id-" + c.name(), c.name(), c.module(), SpecDigest.of(r),
                SpecDigest.canonical(SpecDigest.CURRENT_VERSION, r), 1, false);
    }

    /** Nomad's assertDiffCount: counts per action, so each case states exactly what a pass does. */
    static void assertDiffCount(HostPlan plan, int create, int replace, int start, int remove, int keep) {
        assertEquals(List.of(create, replace, start, remove, keep),
                List.of(plan.create().size(), plan.replace().size(), plan.start().size(), plan.remove().size(),
                        plan.keep().size()), plan.summary());
    }

    static final ComponentSpec A = component("a").build();
    static final ComponentSpec B = component("b").host("db.internal", "10.77.0.11").build();
    static final ComponentSpec C = component("c").module("other").build();

    static Stream<Arguments> cases() {
        ComponentSpec bMoved = component("b").host("db.internal", "10.77.0.12").build();
        return Stream.of(
                Arguments.of("empty node, empty declaration", List.of(), List.of(), new int[] {0, 0, 0, 0, 0}),
                Arguments.of("first apply creates all", List.of(A, B, C), List.of(), new int[] {3, 0, 0, 0, 0}),
                Arguments.of("same again keeps all", List.of(A, B, C), List.of(running(A), running(B), running(C)),
                        new int[] {0, 0, 0, 0, 3}),
                Arguments.of("a moved name replaces only its binder", List.of(A, bMoved, C),
                        List.of(running(A), running(B), running(C)), new int[] {0, 1, 0, 0, 2}),
                Arguments.of("a stopped container is started, not replaced", List.of(A, B),
                        List.of(running(A), stopped(B)), new int[] {0, 0, 1, 0, 1}),
                Arguments.of("an undeclared container is removed", List.of(A),
                        List.of(running(A), running(C)), new int[] {0, 0, 0, 1, 1}),
                Arguments.of("a missing one is created, the rest kept", List.of(A, B, C),
                        List.of(running(A), running(C)), new int[] {1, 0, 0, 0, 2}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void diff(String name, List<ComponentSpec> declared, List<ObservedContainer> observed, int[] counts) {
        Declaration d = new Declaration("n1", null, 2, declared);
        HostPlan plan = HostDiff.between(d, observed);
        assertDiffCount(plan, counts[0], counts[1], counts[2], counts[3], counts[4]);
    }

    @Test
    void aReplaceNamesTheFieldsThatChanged() {
        ComponentSpec moved = component("b").image("mesh-test/busybox:2").host("db.internal", "10.77.0.12").build();
        HostPlan plan = HostDiff.between(declaration("n1", 2, moved), List.of(running(B)));
        assertEquals(List.of("hosts", "image"), plan.replace().get(0).fields());
        assertEquals("1 to replace (b: hosts, image), 0 unchanged", plan.summary());
    }

    @Test
    void aContainerFromAnUnknownDigestVersionIsReplacedWithThatReason() {
        ObservedContainer future = new ObservedContainer("x", "a", "app", "v7:abc", "{}", 1, true);
        HostPlan plan = HostDiff.between(declaration("n1", 2, A), List.of(future));
        assertEquals(List.of("made by an unknown mesh version (digest v7)"), plan.replace().get(0).fields());
    }

    /** A node whose mesh address changes republishes: exactly the components with ports are replaced. */
    @Test
    void aNewNodeAddressReplacesExactlyThePublishers() {
        ComponentSpec web = component("web").port(80).build();
        ComponentSpec quiet = component("quiet").build();
        List<ObservedContainer> observed = List.of(observedAt(web, "10.77.0.11"), observedAt(quiet, "10.77.0.11"));
        HostPlan plan = HostDiff.between(new Declaration("n1", "10.77.0.12", 3, List.of(web, quiet)), observed);
        assertDiffCount(plan, 0, 1, 0, 0, 1);
        assertEquals("1 to replace (web: address), 1 unchanged", plan.summary());
    }

    static ObservedContainer observedAt(ComponentSpec c, String address) {
        ContainerRequest r = ContainerRequest.of(c, address);
        return new ObservedContainer("id-" + c.name(), c.name(), c.module(), SpecDigest.of(r),
                SpecDigest.canonical(SpecDigest.CURRENT_VERSION, r), 1, true, r.ports().isEmpty() ? List.of() : List.of(address));
    }

    /** The incident that started mesh (docs/design.md): one new name in the mesh must not touch anything that does not bind it. */
    @Test
    void aNewNameReplacesOnlyItsBindersAmongTwenty() {
        List<ComponentSpec> before = new ArrayList<>();
        List<ComponentSpec> after = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Specs20.add(before, after, i);
        }
        List<ObservedContainer> observed = before.stream().map(HostDiffTest::running).toList();
        HostPlan plan = HostDiff.between(new Declaration("n1", null, 3, after), observed);
        assertDiffCount(plan, 0, 3, 0, 0, 17);
        assertTrue(plan.replace().stream().allMatch(r -> r.fields().equals(List.of("hosts"))));
        assertEquals(List.of("c0", "c7", "c14"), plan.replace().stream().map(r -> r.spec().name()).toList());
    }

    /** Specs20 makes 20 components of which c0, c7 and c14 bind searxng.zurag.be after the change. */
    static final class Specs20 {
        static void add(List<ComponentSpec> before, List<ComponentSpec> after, int i) {
            before.add(component("c" + i).host("store.internal", "10.77.0.11").build());
            if (i % 7 == 0) {
                after.add(component("c" + i).host("store.internal", "10.77.0.11").host("searxng.zurag.be", "10.77.0.12").build());
            } else {
                after.add(component("c" + i).host("store.internal", "10.77.0.11").build());
            }
        }
    }
}
