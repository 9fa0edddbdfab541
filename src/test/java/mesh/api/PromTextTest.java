package mesh.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class PromTextTest {

    @Test
    void aMetricIsItsHelpItsTypeAndItsSamplesWithLabelValuesEscaped() {
        PromText out = new PromText().gauge("mesh_node_up", "1 when\nup.").sample("mesh_node_up", 1, "node", "a\"b\\c\nd")
                .sample("mesh_node_up", 0, "node", "n2");
        assertEquals("""
                # HELP mesh_node_up 1 when\\nup.
                # TYPE mesh_node_up gauge
                mesh_node_up{node="a\\"b\\\\c\\nd"} 1
                mesh_node_up{node="n2"} 0
                """, out.toString());
    }

    @Test
    void aSampleWithoutLabelsHasNoBraces() {
        assertEquals("mesh_store_up 1\n", new PromText().sample("mesh_store_up", 1).toString());
    }

    @Test
    void aCounterMustEndInTotalAndLabelsComeInPairs() {
        assertThrows(IllegalArgumentException.class, () -> new PromText().counter("mesh_restarts", "x"));
        assertThrows(IllegalArgumentException.class, () -> new PromText().sample("mesh_x", 1, "node"));
        assertEquals("# HELP mesh_restarts_total x\n# TYPE mesh_restarts_total counter\n",
                new PromText().counter("mesh_restarts_total", "x").toString());
    }

    @ParameterizedTest
    @CsvSource({"3, 3", "-2, -2", "0.25, 0.25", "1.0E-4, 1.0E-4", "1.5E20, 1.5E20", "NaN, NaN", "Infinity, +Inf", "-Infinity, -Inf"})
    void numbersAreWrittenAsPrometheusReadsThem(double value, String written) {
        assertEquals(written, PromText.number(value));
    }
}
