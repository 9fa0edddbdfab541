package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.model.Specs;
import org.junit.jupiter.api.Test;

/** NetworkPruneTest: a module's network goes only when nothing of the module remains on the node. */
class NetworkPruneTest {

    static final Map<String, String> NETWORKS = Map.of("web", "web", "db", "db", "gone", "gone");

    @Test
    void aNetworkGoesOnlyWhenNothingOfItsModuleRemains() {
        Declaration d = Specs.declaration("ace", 2, Specs.component("web.server").module("web").network("web").build());
        ObservedContainer stillThere = new ObservedContainer("id", "db.server", "db", "v1:x", "{}", 1, false);
        assertEquals(List.of("gone"), NetworkPrune.leftOver(NETWORKS, d, List.of(stillThere)),
                "db still has a container (stopping, not yet removed); web is declared");
        assertEquals(List.of("db", "gone"), NetworkPrune.leftOver(NETWORKS, d, List.of()));
    }

    @Test
    void aNetworkADeclaredComponentNamesStaysWhateverItsLabelSays() {
        Declaration d = Specs.declaration("ace", 2, Specs.component("app.server").module("app").network("gone").build());
        assertEquals(List.of("db", "web"), NetworkPrune.leftOver(NETWORKS, d, List.of()));
    }
}
