package mesh.model;

import static mesh.model.Specs.component;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SpecDigestTest {

    static final String ADDRESS = "10.77.0.11";

    static ContainerRequest base() {
        return request(component("web.server").module("web").env("A", "1").volume("data", "/data").port(80)
                .host("db.internal", "10.77.0.11").network("web").build());
    }

    static ContainerRequest request(ComponentSpec c) {
        return ContainerRequest.of(c, ADDRESS);
    }

    /** Pinned values: if one changes, every container labelled by that version would be replaced on upgrade. */
    @Test
    void theCanonicalFormsOfAKnownRequestAreStableAcrossReleases() {
        String v1 = "{\"args\":[\"sleep\",\"3600\"],\"env\":{\"A\":\"1\"},\"hosts\":{\"db.internal\":\"10.77.0.11\"},"
                + "\"image\":\"mesh-test/busybox:1\",\"module\":\"web\",\"network\":\"web\",\"ports\":[80],"
                + "\"volumes\":{\"data\":\"/data\"}}";
        assertEquals(v1, SpecDigest.canonical("v1", base()));
        assertEquals("v1:" + SpecDigest.sha256(v1), SpecDigest.of("v1", base()));
        assertEquals("{\"address\":\"10.77.0.11\",\"args\":[\"sleep\",\"3600\"],\"env\":{\"A\":\"1\"},"
                        + "\"hosts\":{\"db.internal\":\"10.77.0.11\"},\"image\":\"mesh-test/busybox:1\",\"module\":\"web\","
                        + "\"network\":\"web\",\"ports\":[80],\"volumes\":{\"data\":\"/data\"}}",
                SpecDigest.canonical("v2", base()));
        assertEquals("v2:ac4cf108517b869fafed87b1db692c79868ed579e76b01c124b2461106610e42", SpecDigest.of("v2", base()));
        assertEquals(SpecDigest.canonical("v2", base()), SpecDigest.canonical("v3", base()), "a container has no bundle");
        assertEquals("v3:ac4cf108517b869fafed87b1db692c79868ed579e76b01c124b2461106610e42", SpecDigest.of(base()));
        assertEquals("{\"address\":\"10.77.0.11\",\"args\":[\"sleep\",\"3600\"],\"bundle\":\"tools/web@sha256:" + "ab".repeat(32) + "\","
                        + "\"env\":{},\"hosts\":{},\"module\":\"web\",\"ports\":[8080],\"volumes\":{}}",
                SpecDigest.canonical("v3", process("tools/web@sha256:" + "ab".repeat(32))));
        assertEquals("v3", SpecDigest.CURRENT_VERSION);
    }

    static ContainerRequest process(String bundle) {
        return request(component("web.proc").module("web").image(null).bundle(bundle).port(8080).network(null).build());
    }

    @Test
    void aNewBundleDigestRestartsTheProcessAndIsNamedBundle() {
        ContainerRequest before = process("tools/web@sha256:" + "ab".repeat(32));
        ContainerRequest after = process("tools/web@sha256:" + "cd".repeat(32));
        assertNotEquals(SpecDigest.of(before), SpecDigest.of(after));
        assertEquals(List.of("bundle"), SpecDigest.changes(labelled(before, "v3", List.of()), after));
        assertEquals(List.of(), SpecDigest.changes(labelled(before, "v3", List.of()), before));
    }

    @Test
    void v1AndV2ContainersAreKeptByTheUpgradeToV3() {
        assertEquals(List.of(), SpecDigest.changes(labelled(base(), "v2", List.of(ADDRESS)), base()));
        assertEquals(List.of(), SpecDigest.changes(labelled(base(), "v1", List.of(ADDRESS)), base()));
        assertTrue(SpecDigest.matches(SpecDigest.of("v2", base()), base()));
    }

    @Test
    void aComponentThatPublishesNothingHasTheSameCanonicalFormUnderBothVersionsButTheVersion() {
        ContainerRequest quiet = request(component("web.worker").module("web").build());
        assertEquals(SpecDigest.canonical("v1", quiet), SpecDigest.canonical("v2", quiet));
        assertEquals(SpecDigest.of(quiet), SpecDigest.of(ContainerRequest.of(component("web.worker").module("web").build(),
                "10.77.0.99")), "a new node address does not touch what publishes nothing");
    }

    @Test
    void orderOfMapEntriesAndPortsDoesNotMatter() {
        ContainerRequest a = request(component("x").env("A", "1").env("B", "2").port(80).port(443)
                .host("a.internal", "10.0.0.1").host("b.internal", "10.0.0.2").build());
        ContainerRequest b = request(component("x").env("B", "2").env("A", "1").port(443).port(80)
                .host("b.internal", "10.0.0.2").host("a.internal", "10.0.0.1").build());
        assertEquals(SpecDigest.of(a), SpecDigest.of(b));
    }

    static Stream<Arguments> changes() {
        return Stream.of(
                Arguments.of("image", (UnaryOperator<Specs.Builder>) b -> b.image("other:2"), List.of("image")),
                Arguments.of("args", (UnaryOperator<Specs.Builder>) b -> b.args("sleep", "5"), List.of("args")),
                Arguments.of("env", (UnaryOperator<Specs.Builder>) b -> b.env("A", "2"), List.of("env")),
                Arguments.of("volumes", (UnaryOperator<Specs.Builder>) b -> b.volume("data", "/other"), List.of("volumes")),
                Arguments.of("ports", (UnaryOperator<Specs.Builder>) b -> b.port(81), List.of("ports")),
                Arguments.of("hosts", (UnaryOperator<Specs.Builder>) b -> b.host("db.internal", "10.77.0.12"), List.of("hosts")),
                Arguments.of("network", (UnaryOperator<Specs.Builder>) b -> b.network("other"), List.of("network")),
                Arguments.of("image and hosts", (UnaryOperator<Specs.Builder>) b -> b.image("o:1").host("n.internal", "10.0.0.9"),
                        List.of("hosts", "image")));
    }

    @ParameterizedTest(name = "{0} is digested and named")
    @MethodSource("changes")
    void aDigestedFieldChangesTheDigestAndIsNamed(String what, UnaryOperator<Specs.Builder> change, List<String> fields) {
        Specs.Builder builder = component("web.server").module("web").env("A", "1").volume("data", "/data").port(80)
                .host("db.internal", "10.77.0.11").network("web");
        ContainerRequest changed = request(change.apply(builder).build());
        assertNotEquals(SpecDigest.of(base()), SpecDigest.of(changed));
        assertFalse(SpecDigest.matches(SpecDigest.of(base()), changed));
        assertEquals(fields, SpecDigest.changedFields(SpecDigest.canonical("v2", base()), SpecDigest.canonical("v2", changed)));
        assertEquals(fields, SpecDigest.changes(labelled(base(), "v2", List.of(ADDRESS)), changed));
    }

    @Test
    void healthAfterAndStopTimeoutAreNotPartOfIdentity() {
        ContainerRequest changed = request(component("web.server").module("web").env("A", "1").volume("data", "/data").port(80)
                .host("db.internal", "10.77.0.11").network("web")
                .health(new HealthCheck("/ok", 80, null, 5)).after("db").stopTimeout(60).build());
        assertEquals(SpecDigest.of(base()), SpecDigest.of(changed));
    }

    @Test
    void unknownOrMissingVersionsNeverMatch() {
        String hex = SpecDigest.of(base()).substring(3);
        assertFalse(SpecDigest.matches("v9:" + hex, base()));
        assertFalse(SpecDigest.matches(hex, base()));
        assertFalse(SpecDigest.matches(null, base()));
    }

    @Test
    void anUnreadableOldSpecIsReportedAsSpecNotGuessed() {
        assertEquals(List.of("spec"), SpecDigest.changedFields(null, SpecDigest.canonical("v2", base())));
        assertEquals(List.of("spec"), SpecDigest.changedFields("{not json", SpecDigest.canonical("v2", base())));
    }

    /** The container as the engine would report it, labelled by {@code version} for {@code r}. */
    static ObservedContainer labelled(ContainerRequest r, String version, List<String> publishedOn) {
        return new ObservedContainer("id", r.name(), r.module(), SpecDigest.of(version, r), SpecDigest.canonical(version, r),
                1, true, publishedOn);
    }

    @Test
    void aNewPublishAddressChangesTheDigestAndIsNamedAddress() {
        ContainerRequest moved = ContainerRequest.of(component("web.server").module("web").env("A", "1")
                .volume("data", "/data").port(80).host("db.internal", "10.77.0.11").network("web").build(), "10.77.0.12");
        assertNotEquals(SpecDigest.of(base()), SpecDigest.of(moved));
        assertEquals(List.of("address"), SpecDigest.changes(labelled(base(), "v2", List.of(ADDRESS)), moved));
        assertEquals(List.of("address"), SpecDigest.changedFields(SpecDigest.canonical("v2", base()),
                SpecDigest.canonical("v2", ContainerRequest.of(component("web.server").module("web").env("A", "1")
                        .volume("data", "/data").port(80).host("db.internal", "10.77.0.11").network("web").build(), null))));
    }

    @Test
    void aV1ContainerIsKeptByTheUpgradeAloneWhileItPublishesWhereItShould() {
        assertEquals(List.of(), SpecDigest.changes(labelled(base(), "v1", List.of(ADDRESS)), base()));
        assertTrue(SpecDigest.matches(SpecDigest.of("v1", base()), base()));
        ContainerRequest everywhere = ContainerRequest.of(component("web.server").module("web").env("A", "1")
                .volume("data", "/data").port(80).host("db.internal", "10.77.0.11").network("web").build(), null);
        assertEquals(List.of(), SpecDigest.changes(labelled(everywhere, "v1", List.of("0.0.0.0", "::")), everywhere));
        assertEquals(List.of(), SpecDigest.changes(labelled(base(), "v1", List.of()), base()),
                "a stopped v1 container shows no bindings: it is started, and looked at again once it runs");
    }

    @Test
    void aV1ContainerPublishingOnAnAddressTheNodeNoLongerHasIsReplacedForAddress() {
        assertEquals(List.of("address"), SpecDigest.changes(labelled(base(), "v1", List.of("10.77.0.99")), base()));
        ContainerRequest everywhere = ContainerRequest.of(component("web.server").module("web").env("A", "1")
                .volume("data", "/data").port(80).host("db.internal", "10.77.0.11").network("web").build(), null);
        assertEquals(List.of("address"), SpecDigest.changes(labelled(everywhere, "v1", List.of(ADDRESS)), everywhere));
        assertEquals(List.of("address"), SpecDigest.changes(labelled(everywhere, "v1", List.of("0.0.0.0", "::")), base()),
                "published on every address, now to be published on the node's own");
    }

    @Test
    void aV1ContainerWhoseDigestedFieldsChangedNamesThemAsBefore() {
        ContainerRequest changed = request(component("web.server").module("web").env("A", "2").volume("data", "/data")
                .port(80).host("db.internal", "10.77.0.11").network("web").build());
        assertEquals(List.of("env"), SpecDigest.changes(labelled(base(), "v1", List.of(ADDRESS)), changed));
    }

    @Test
    void anUnknownVersionIsReplacedWithAReasonThatSaysSo() {
        ObservedContainer future = new ObservedContainer("x", "web.server", "web", "v9:abc", "{}", 1, true);
        assertEquals(List.of("made by an unknown mesh version (digest v9)"), SpecDigest.changes(future, base()));
    }
}
