package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** PreCopyTest: the pre-copy's rule of passes, as a table: passes done (bytes, seconds) to another pass or the fence. */
class PreCopyTest {

    static final long MB = 1_000_000;

    static Take.Pass pass(long bytes, double seconds) {
        return new Take.Pass(true, bytes, 1, 0, seconds, 0);
    }

    static Stream<Arguments> table() {
        return Stream.of(
                Arguments.of("nothing copied yet: the first pass", List.of(), true, "pass 1 copies"),
                Arguments.of("a small volume copied in a second: fence", List.of(pass(20 * MB, 0.4)), false, "small"),
                Arguments.of("a big first pass: another", List.of(pass(2000 * MB, 14)), true, "pass 2 sends"),
                Arguments.of("the second pass was quick: fence", List.of(pass(2000 * MB, 14), pass(20 * MB, 0.3)), false, "small"),
                Arguments.of("shrinking but still slow: another", List.of(pass(2000 * MB, 14), pass(400 * MB, 3)), true, "pass 3"),
                Arguments.of("not shrinking: writes as fast as the copy", List.of(pass(400 * MB, 3), pass(350 * MB, 2.8)), false,
                        "not worth it"),
                Arguments.of("growing: not worth it", List.of(pass(2000 * MB, 14), pass(1500 * MB, 2), pass(1600 * MB, 2)), false,
                        "not worth it"),
                Arguments.of("the fourth pass is the last", List.of(pass(8000 * MB, 60), pass(3000 * MB, 20), pass(1000 * MB, 7),
                        pass(400 * MB, 3)), false, "4 passes"),
                Arguments.of("the third pass, shrinking: a fourth", List.of(pass(8000 * MB, 60), pass(3000 * MB, 20),
                        pass(1000 * MB, 7)), true, "pass 4"),
                Arguments.of("exactly half is not more than half: another", List.of(pass(400 * MB, 3), pass(200 * MB, 1.5)), true,
                        "pass 3"),
                Arguments.of("exactly the quick bound: fence", List.of(pass(100 * MB, 1.0)), false, "small"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decidesAnotherPassOrTheFence(String name, List<Take.Pass> done, boolean another, String why) {
        PreCopy.Decision d = PreCopy.RULE.after(done);
        assertEquals(another, d.anotherPass(), d.why());
        assertTrue(d.why().contains(why), d.why());
    }
}
