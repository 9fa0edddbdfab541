package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/** CopyStallTest: a copy stalls when its bytes did not grow for the window, whatever its lines still say. */
class CopyStallTest {

    static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    static final CopyStall RULE = new CopyStall(Duration.ofSeconds(45));

    /** Samples from "seconds:bytes" pairs, seconds after T0. */
    static List<CopyStall.Sample> samples(String spec) {
        List<CopyStall.Sample> out = new ArrayList<>();
        for (String pair : spec.isBlank() ? new String[0] : spec.split(" ")) {
            String[] p = pair.split(":");
            out.add(new CopyStall.Sample(T0.plusSeconds(Long.parseLong(p[0])), Long.parseLong(p[1])));
        }
        return out;
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no line yet", "", 100, false),
                Arguments.of("growing every second", "0:0 1:10 2:20 3:30", 4, false),
                Arguments.of("nothing yet, within the window", "0:0 1:0 30:0", 44, false),
                Arguments.of("nothing at all for the window", "0:0 1:0 30:0", 45, true),
                Arguments.of("grew, then flat for 44 s", "0:0 10:500 20:500 54:500", 54, false),
                Arguments.of("grew, then flat for 45 s", "0:0 10:500 20:500 55:500", 55, true),
                Arguments.of("flat, then grew again", "0:0 10:500 50:500 56:600", 60, false),
                Arguments.of("lines stopped coming after growth", "0:0 10:500", 55, true),
                Arguments.of("lines stopped coming, within the window", "0:0 10:500", 54, false));
    }

    @ParameterizedTest(name = "{0}: stalled {3}")
    @MethodSource("cases")
    void aCopyStallsOnlyWhenItsBytesDidNotGrowForTheWindow(String what, String spec, long nowSeconds, boolean stalled) {
        assertEquals(stalled, RULE.stalled(samples(spec), T0.plusSeconds(nowSeconds)), what);
    }

    @ParameterizedTest(name = "{0}: the kept samples answer alike")
    @MethodSource("cases")
    void theKeptSamplesGiveTheSameAnswer(String what, String spec, long nowSeconds, boolean stalled) {
        List<CopyStall.Sample> kept = new ArrayList<>();
        for (CopyStall.Sample s : samples(spec)) {
            kept.add(s);
            kept = new ArrayList<>(CopyStall.kept(kept));
        }
        assertEquals(stalled, RULE.stalled(kept, T0.plusSeconds(nowSeconds)), what + ": " + kept);
        assertEquals(true, kept.size() <= 2, kept.toString());
    }

    @Test
    void theRuleSaysWhichVolumeAndWhereItStands() {
        assertEquals("no byte of volume data was copied for 45 s (still at 500 B)",
                RULE.describe("data", samples("0:0 10:500")));
    }
}
