package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** CertRotationTest: who {@code mesh ca rotate-certs} reissues, and why each one left is left. */
class CertRotationTest {

    static final Instant NOW = Instant.parse("2026-12-01T03:00:00Z");
    static final List<String> NODES = List.of("ace", "novox", "n3");

    static Map<String, CertRotation.Look> looks() {
        Map<String, CertRotation.Look> looks = new LinkedHashMap<>();
        looks.put("ace", CertRotation.Look.serving(NOW.plus(Duration.ofDays(12))));
        looks.put("novox", CertRotation.Look.serving(NOW.plus(Duration.ofDays(300))));
        looks.put("n3", CertRotation.Look.down("node n3's agent at https://10.0.0.13:7701 did not answer (connection refused)"));
        return looks;
    }

    static Map<String, String> byParty(List<CertRotation.Decision> decisions) {
        Map<String, String> out = new LinkedHashMap<>();
        decisions.forEach(d -> out.put(d.party(), d.reissue() ? "reissue" : d.why()));
        return out;
    }

    @Test
    void everyAnsweringAgentThenTheControllerAreReissuedAndADownOneIsLeftNamed() {
        List<CertRotation.Decision> d = CertRotation.decide(NODES, List.of(), looks(), NOW);
        assertEquals(List.of("ace", "novox", "n3", "controller"), d.stream().map(CertRotation.Decision::party).toList(),
                "the nodes in order, the controller last");
        Map<String, String> by = byParty(d);
        assertEquals("reissue", by.get("ace"), "one expiring soon");
        assertEquals("reissue", by.get("novox"), "one far from expiry: the verb reissues what is asked");
        assertTrue(by.get("n3").startsWith("unreachable: node n3's agent"), by.get("n3"));
        assertEquals("reissue", by.get("controller"));
        assertTrue(CertRotation.failed(d.get(2)), "a node left unreachable fails the verb");
    }

    @Test
    void nodeNarrowsToThoseNodesAndLeavesTheControllerAsAsked() {
        Map<String, CertRotation.Look> looks = looks();
        looks.remove("novox");   // not asked, so not looked at
        Map<String, String> by = byParty(CertRotation.decide(NODES, List.of("ace"), Map.of("ace", looks.get("ace")), NOW));
        assertEquals("reissue", by.get("ace"));
        assertEquals("not asked (--node)", by.get("novox"));
        assertEquals("not asked (--node)", by.get("n3"), "a node not asked is not tried, down or not");
        assertTrue(by.get("controller").startsWith("not asked"), by.get("controller"));
        assertFalse(CertRotation.failed(new CertRotation.Decision("novox", false, "not asked (--node)", false)));
    }

    @Test
    void aPlainOrExpiredAgentIsLeftSayingWhy() {
        Map<String, CertRotation.Look> looks = Map.of(
                "ace", CertRotation.Look.serving(null),
                "novox", CertRotation.Look.serving(NOW.minus(Duration.ofDays(1))),
                "n3", CertRotation.Look.serving(NOW));
        Map<String, String> by = byParty(CertRotation.decide(NODES, List.of(), looks, NOW));
        assertTrue(by.get("ace").contains("serves no certificate"), by.get("ace"));
        assertTrue(by.get("novox").startsWith("its certificate expired on 2026-11-30"), by.get("novox"));
        assertTrue(by.get("n3").startsWith("its certificate expired"), "expiring this instant is expired: " + by.get("n3"));
    }

    @Test
    void unknownNamesAreFoundBeforeAnythingIsDone() {
        assertEquals(List.of("ghost"), CertRotation.unknown(List.of("ace", "ghost", "ghost"), Set.copyOf(NODES)));
        assertEquals(List.of(), CertRotation.unknown(List.of(), Set.copyOf(NODES)));
    }

    @Test
    void theAuditSaysWhoWasReissuedAndWhoWasLeft() {
        Map<String, String> left = new LinkedHashMap<>();
        left.put("n3", "unreachable: node n3's agent did not answer");
        assertEquals("certificates reissued: ace, novox, controller; left: n3 (unreachable)",
                CertRotation.summary(List.of("ace", "novox", "controller"), left));
        assertEquals("certificates reissued: none; left: n3 (unreachable)", CertRotation.summary(List.of(), left));
    }
}
