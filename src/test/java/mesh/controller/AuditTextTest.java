package mesh.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.wire.CatalogueChange;
import org.junit.jupiter.api.Test;

/** AuditTextTest: what each write verb changed, in the words the audit trail keeps. */
class AuditTextTest {

    static final Node NOVOX = new Node("novox", "10.77.0.11", "http://10.77.0.11:7701", null);

    @Test
    void aNodeChangeNamesOnlyWhatDiffers() {
        assertEquals("node novox: address 10.77.0.11 → 10.77.0.21",
                AuditText.nodeSet(NOVOX, new Node("novox", "10.77.0.21", NOVOX.agent(), null)));
        assertEquals("node novox: address 10.77.0.11 → 10.77.0.21, agent http://10.77.0.11:7701 → http://10.77.0.21:7701",
                AuditText.nodeSet(NOVOX, new Node("novox", "10.77.0.21", "http://10.77.0.21:7701", null)));
        assertEquals("node novox: no change", AuditText.nodeSet(NOVOX, NOVOX));
        assertEquals("node novox: public domain none → novox.be", AuditText.publicDomain("novox", null, "novox.be"));
        assertEquals("node novox: public domain novox.be (no change)", AuditText.publicDomain("novox", "novox.be", "novox.be"));
    }

    @Test
    void aNodeAddSaysWhetherItGotAJoinTokenButNeverTheToken() {
        assertEquals("node novox added at 10.77.0.11, agent http://10.77.0.11:7701, with a new join token",
                AuditText.nodeAdded(NOVOX, true));
        assertEquals("node novox added at 10.77.0.11, agent http://10.77.0.11:7701, without a join token (its certificate"
                + " is issued on the seat)", AuditText.nodeAdded(NOVOX, false));
        assertEquals("node novox: new join token (the node's earlier one, if unspent, no longer works)",
                AuditText.joinTokenMade("novox"));
        assertEquals("node novox joined: its agent certificate issued, its join token spent", AuditText.nodeJoined("novox"));
    }

    @Test
    void placementsSayWhereAModuleWasAndIs() {
        assertEquals("module web: assigned nowhere → novox, taken nowhere → novox",
                AuditText.placement(new Placement("web", null, null), new Placement("web", "novox", "novox")));
        assertEquals("module web: assigned novox → ace",
                AuditText.placement(new Placement("web", "novox", "novox"), new Placement("web", "ace", "novox")));
        assertEquals("module web: assigned novox → nowhere, taken novox → nowhere",
                AuditText.placement(new Placement("web", "novox", "novox"), new Placement("web", null, null)));
    }

    @Test
    void theCatalogueAndAPushListWhatTheyTouched() {
        assertEquals("catalogue: added db, web; unchanged app",
                AuditText.catalogue(new CatalogueChange(List.of("db", "web"), List.of(), List.of("app"))));
        assertEquals("catalogue: updated app", AuditText.catalogue(new CatalogueChange(List.of(), List.of("app"), List.of())));
        Map<String, Long> sent = new LinkedHashMap<>();
        sent.put("ace", 3L);
        sent.put("novox", 7L);
        assertEquals("sent ace generation 3, novox generation 7", AuditText.push(sent));
        assertEquals("sent ace generation 3, novox generation 7 for the take of web, epoch 5", AuditText.push(sent, "web", 5));
    }

    @Test
    void aRollbackNamesThePushItReturnedToAndWhatItSentEvenNothing() {
        Map<String, Long> sent = new LinkedHashMap<>();
        assertEquals("rolled back to push 42: sent nothing (every node runs it already); the catalogue and placements restored",
                AuditText.rollback(42, sent));
        sent.put("ace", 9L);
        assertEquals("rolled back to push 42: sent ace generation 9; the catalogue and placements restored",
                AuditText.rollback(42, sent));
    }
}
