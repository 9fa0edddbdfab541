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

    static ComponentSpec base() {
        return component("web.server").module("web").env("A", "1").volume("data", "/data").port(80)
                .host("db.internal", "10.77.0.11").network("web").build();
    }

    /** A pinned value: if this changes, every container of every mesh would be replaced on upgrade. */
    @Test
    void digestOfAKnownSpecIsStableAcrossReleases() {
        assertEquals("{\"args\":[\"sleep\",\"3600\"],\"env\":{\"A\":\"1\"},\"hosts\":{\"db.internal\":\"10.77.0.11\"},"
                        + "\"image\":\"mesh-test/busybox:1\",\"module\":\"web\",\"network\":\"web\",\"ports\":[80],"
                        + "\"volumes\":{\"data\":\"/data\"}}",
                SpecDigest.canonical("v1", base()));
        assertEquals("v1:" + SpecDigest.sha256(SpecDigest.canonical("v1", base())), SpecDigest.of(base()));
        assertTrue(SpecDigest.of(base()).matches("v1:[0-9a-f]{64}"));
    }

    @Test
    void orderOfMapEntriesAndPortsDoesNotMatter() {
        ComponentSpec a = component("x").env("A", "1").env("B", "2").port(80).port(443)
                .host("a.internal", "10.0.0.1").host("b.internal", "10.0.0.2").build();
        ComponentSpec b = component("x").env("B", "2").env("A", "1").port(443).port(80)
                .host("b.internal", "10.0.0.2").host("a.internal", "10.0.0.1").build();
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
        ComponentSpec changed = change.apply(builder).build();
        assertNotEquals(SpecDigest.of(base()), SpecDigest.of(changed));
        assertFalse(SpecDigest.matches(SpecDigest.of(base()), changed));
        assertEquals(fields, SpecDigest.changedFields(SpecDigest.canonical("v1", base()), SpecDigest.canonical("v1", changed)));
    }

    @Test
    void healthAfterAndStopTimeoutAreNotPartOfIdentity() {
        ComponentSpec changed = component("web.server").module("web").env("A", "1").volume("data", "/data").port(80)
                .host("db.internal", "10.77.0.11").network("web")
                .health(new HealthCheck("/ok", 80, null, 5)).after("db").stopTimeout(60).build();
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
        assertEquals(List.of("spec"), SpecDigest.changedFields(null, SpecDigest.canonical("v1", base())));
        assertEquals(List.of("spec"), SpecDigest.changedFields("{not json", SpecDigest.canonical("v1", base())));
    }
}
