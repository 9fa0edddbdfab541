package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** EdgeReloadTest: the edge keeper's decisions as tables: one reload when the routes differ, never a refused one again. */
class EdgeReloadTest {

    @ParameterizedTest(name = "generation {0} after {1}, edge {2}, running {3}: {4}")
    @CsvSource(nullValues = "none", value = {
            "4,    5, true,  true,  IGNORE",       // a pass that read an older declaration than a push since
            "3,    5, false, false, IGNORE",
            "none, 5, false, false, NO_EDGE",      // no declaration yet
            "5,    5, false, true,  NO_EDGE",      // the node is no edge
            "6,    5, true,  false, NOT_RUNNING",  // its edge container does not run
            "5,    5, true,  true,  LOOK",
            "6,    0, true,  true,  LOOK"})
    void beforeAskingCaddy(Long generation, long newest, boolean edge, boolean running, EdgeReload.Before expected) {
        assertEquals(expected, EdgeReload.before(generation, newest, edge, running));
    }

    @ParameterizedTest(name = "serves wanted {0}, refused here {1}, last good {2}, serves it {3}: {4}")
    @CsvSource({
            "true,  false, false, false, SERVING",
            "true,  true,  true,  false, SERVING",  // a refused configuration Caddy now serves (reloaded by hand) is served
            "false, false, false, false, LOAD",     // a first load
            "false, false, true,  true,  LOAD",     // a route change: one reload
            "false, true,  true,  true,  PASS",     // refused by this container: not sent again
            "false, true,  false, false, PASS",     // refused, and nothing was ever accepted: nothing to give back
            "false, true,  true,  false, RESTORE"}) // refused, and Caddy restarted empty: the last accepted routes back
    void onceCaddysConfigurationIsRead(boolean servesWanted, boolean refusedHere, boolean lastGood, boolean servesLastGood,
                                       EdgeReload.After expected) {
        assertEquals(expected, EdgeReload.after(servesWanted, refusedHere, lastGood, servesLastGood));
    }
}
