package mesh.plan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** JoinTokenRuleTest: a join token opens the join once, only itself, and for 24 h; each refusal says which. */
class JoinTokenRuleTest {

    static final Instant MADE = Instant.parse("2026-12-01T03:00:00Z");
    static final byte[] HASH = {1, 2, 3, 4};

    @Test
    void theCurrentTokenWithinItsDayOpensTheJoin() {
        assertNull(JoinTokenRule.refusal("ace", HASH, MADE, new byte[] {1, 2, 3, 4}, MADE.plus(Duration.ofHours(23))));
        assertEquals(Instant.parse("2026-12-02T03:00:00Z"), JoinTokenRule.expiry(MADE));
    }

    @Test
    void aWrongTokenIsRefusedAsWrong() {
        String why = JoinTokenRule.refusal("ace", HASH, MADE, new byte[] {9, 9, 9, 9}, MADE);
        assertTrue(why.startsWith("wrong join token: not node ace's current join token"), why);
    }

    @Test
    void aSpentTokenIsRefusedAsSpentWhateverIsPresented() {
        String why = JoinTokenRule.refusal("ace", null, MADE, HASH, MADE.plusSeconds(5));
        assertTrue(why.startsWith("spent join token: node ace's join token made at 2026-12-01T03:00:00Z was already used"), why);
        assertTrue(why.endsWith("'mesh node token ace --rotate' makes a new one"), why);
    }

    @Test
    void aTokenIsRefusedAsExpiredFromItsTwentyFourthHour() {
        String why = JoinTokenRule.refusal("ace", HASH, MADE, HASH, MADE.plus(Duration.ofHours(24)));
        assertEquals("expired join token: node ace's join token made at 2026-12-01T03:00:00Z expired at"
                + " 2026-12-02T03:00:00Z (a join token lasts 24 h); 'mesh node token ace --rotate' makes a new one", why);
    }

    @Test
    void aWrongTokenPastTheDayIsToldWrongNotExpired() {
        String why = JoinTokenRule.refusal("ace", HASH, MADE, new byte[] {0}, MADE.plus(Duration.ofDays(3)));
        assertTrue(why.startsWith("wrong join token"), why);
    }

    @Test
    void aNodeThatNeverHadOneIsToldSo() {
        String why = JoinTokenRule.refusal("ace", null, null, HASH, MADE);
        assertTrue(why.startsWith("node ace has no join token"), why);
    }
}
