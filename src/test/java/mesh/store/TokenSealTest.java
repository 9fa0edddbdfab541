package mesh.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** TokenSealTest: an agent token sealed for the store opens only with the same key and for the same node. */
class TokenSealTest {

    static final String TOKEN = "0123456789abcdef0123456789abcdef0123456789abcdef";

    @Test
    void aSealedTokenHoldsNoClearTextAndOpensWithItsKey() {
        TokenSeal seal = TokenSeal.fromSecret("the controller's secret, long enough");
        String sealed = seal.seal("novox", TOKEN);
        assertTrue(sealed.startsWith(TokenSeal.PREFIX), sealed);
        assertFalse(sealed.contains(TOKEN), sealed);
        assertNotEquals(sealed, seal.seal("novox", TOKEN), "a fresh nonce each time");
        assertEquals(TOKEN, seal.open("novox", sealed));
        assertEquals(TOKEN, TokenSeal.fromSecret("the controller's secret, long enough").open("novox", sealed),
                "the key is derived again from the same secret after a restart");
    }

    @Test
    void anotherKeyOrAnotherNodeCannotOpenIt() {
        String sealed = TokenSeal.fromSecret("one secret, long enough to be a key").seal("novox", TOKEN);
        StoreFailure other = assertThrows(StoreFailure.class,
                () -> TokenSeal.fromSecret("another secret, long enough as well").open("novox", sealed));
        assertTrue(other.getMessage().contains("mesh node token novox --rotate"), other.getMessage());
        assertThrows(StoreFailure.class, () -> TokenSeal.fromSecret("one secret, long enough to be a key").open("ace", sealed),
                "a sealed token copied onto another node's row");
    }

    @Test
    void aTokenStoredInClearBeforeSealingIsReadAsItIs() {
        assertFalse(TokenSeal.isSealed(TOKEN));
        assertEquals(TOKEN, TokenSeal.fromSecret("any secret at all, long enough").open("novox", TOKEN));
    }
}
