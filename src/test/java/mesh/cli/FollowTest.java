package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** FollowTest: the CLI's one loop over an operation's views, with the views as a list (the controller's answers). */
class FollowTest {

    private static final Duration EVERY = Duration.ofMillis(1);

    @Test
    void theFirstLookIsTheVerbsAnswerAndEveryLookIsSaidUntilTheEnd() {
        Iterator<String> answers = List.of("copy", "fence", "done", "never asked").iterator();
        List<String> said = new ArrayList<>();
        Follow.Followed<String> f = Follow.follow("pre-copy", answers::next, EVERY, null, said::add, "done"::equals,
                "the take goes on");
        assertTrue(f.ended());
        assertEquals("done", f.last());
        assertEquals(List.of("pre-copy", "copy", "fence", "done"), said);
    }

    @Test
    void aWaitThatRunsOutEndsWithTheLastViewAndNotEnded() {
        Follow.Followed<String> f = Follow.follow("copy", () -> "copy", Duration.ofMillis(30), Duration.ofMillis(100),
                v -> { }, "done"::equals, "the backup goes on");
        assertFalse(f.ended());
        assertEquals("copy", f.last());
    }

    @Test
    void anInterruptSaysTheOperationGoesOn() {
        Thread.currentThread().interrupt();
        try {
            VerbFailure e = assertThrows(VerbFailure.class, () -> Follow.follow("copy", () -> "copy", Duration.ofSeconds(1),
                    null, v -> { }, "done"::equals, "the drain goes on in the controller ('mesh drain --status n2' shows it)"));
            assertEquals("interrupted; the drain goes on in the controller ('mesh drain --status n2' shows it)", e.getMessage());
        } finally {
            Thread.interrupted();
        }
    }
}
