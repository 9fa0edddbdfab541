package mesh.cli;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;
import mesh.model.Poll;

/**
 * Follow is the CLI's one loop for an operation that runs in the controller (a take, a restore, a backup, a drain): it
 * looks at the operation's view every {@code every}, hands each look to the command to say what changed, and ends when
 * the view says the operation ended (or stopped with no runner) or when the command's own wait ran out. The operation
 * never depends on it: Ctrl-C ends the following, not the operation, and the failure says where to look at it next.
 */
final class Follow {

    private Follow() {
    }

    /** The last view looked at, and whether it said the operation ended (false: the wait ran out first). */
    record Followed<V>(V last, boolean ended) {
    }

    /**
     * Follows from {@code first} (the answer to the verb, said as the first look), then {@code next} every {@code every}
     * until {@code ended} holds or {@code waitFor} (null: no limit) has passed. An interrupt is a failure saying that the
     * operation goes on ({@code goesOn}: "the take goes on in the controller ('mesh status' shows it)").
     */
    static <V> Followed<V> follow(V first, Supplier<V> next, Duration every, Duration waitFor, Consumer<V> say,
                                  Predicate<V> ended, String goesOn) {
        var seen = new Object() {
            V last;
        };
        try {
            Poll.Result<V> r = Poll.until(waitFor == null ? Poll.NO_LIMIT : waitFor, every, () -> {
                V v = seen.last = seen.last == null ? first : next.get();
                say.accept(v);
                return ended.test(v) ? Poll.got(v) : Poll.notYet("running");
            });
            return new Followed<>(seen.last, r instanceof Poll.Answered<V>);
        } catch (CancellationException e) {
            throw new VerbFailure("interrupted; " + goesOn);
        }
    }
}
