package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** StoreCopyTest: the order a copy fills the tables in, each after the tables it references. */
class StoreCopyTest {

    @Test
    void referencedTablesComeFirstAndTheRestKeepTheirOrder() {
        List<String[]> keys = List.of(new String[] {"node_pushes", "nodes"}, new String[] {"placements", "modules"},
                new String[] {"placements", "nodes"});
        assertEquals(List.of("audit", "modules", "nodes", "node_pushes", "placements"),
                StoreCopy.referencedFirst(List.of("audit", "modules", "node_pushes", "nodes", "placements"), keys));
    }

    @Test
    void aCycleDoesNotStopTheOrder() {
        List<String[]> keys = List.of(new String[] {"a", "b"}, new String[] {"b", "a"}, new String[] {"c", "a"});
        assertEquals(List.of("a", "b", "c"), StoreCopy.referencedFirst(List.of("a", "b", "c"), keys));
    }
}
