package mesh.plan;

import java.time.Duration;

/**
 * Operation is the pure half of the controller's long operations (a take, a backup, a restore; a drain or a seat
 * promotion next): what one step of any of them can find ({@link Outcome}: {@link Done}, {@link Failed} with its
 * {@link Reason}, or an outcome of the operation's own), the decisions every operation's plan makes ({@link Plan}),
 * and the one retry policy ({@link Retry}). The controller's {@code mesh.controller.OperationRunner} carries every
 * operation out with them: it never decides, its plan never acts.
 */
public final class Operation {

    private Operation() {
    }

    /** Outcome is what carrying out one step found. Each operation adds its own (a take's {@code Copied}). */
    public interface Outcome {
    }

    /** The step went through and found nothing the record keeps. */
    public record Done() implements Outcome {
    }

    /**
     * The step did not go through: why, as a {@link Reason} a plan or a caller branches on, and in words for the
     * operator (the record keeps the words as its error or problem). Never a sentence to compare.
     */
    public record Failed(Reason reason, String words) implements Outcome {

        public Failed {
            reason = reason == null ? Reason.FAILED : reason;
            words = words == null || words.isBlank() ? "it failed without saying why" : words;
        }
    }

    /**
     * Reason is why a step failed. Not {@code mesh.wire.Reason}: that is why a request was refused (an API's answer,
     * and the plan layer does not read the wire); the runner maps it here ({@code CallFailure} that got no
     * answer is {@link #UNREACHABLE}, a refusal is {@link #REFUSED}).
     */
    public enum Reason {
        /** A check found the operation cannot be carried out (a preflight's, a wire level's); nothing changed. */
        REFUSED,
        /** A node's agent (or the registry) did not answer. */
        UNREACHABLE,
        /** The step did not end within its deadline ({@link Plan#deadline}); the runner stopped waiting for it. */
        TIMED_OUT,
        /** The mesh changed under the operation (the module moved, a node left, a push holds the lock). */
        CONFLICT,
        /** The part asked carried the step out and said it failed (a copy's error, a verify's difference). */
        FAILED,
        /** A bug: the step threw what no part should; the controller's log says more. */
        INTERNAL
    }

    /**
     * Plan is one kind of operation's pure decisions over its record {@code R}: the step it carries out next, the
     * record after that step found an {@link Outcome} ({@link #after}, the one rule of the operation), how long the step
     * may take ({@link #deadline}), and what becomes of a record whose step failed every try ({@link #gaveUp}).
     */
    public interface Plan<R> {

        /** The step {@code r} carries out next; the runner picks its handler by it. */
        Enum<?> step(R r);

        boolean ended(R r);

        /** The record after its current step found {@code o}: the next step, a rollback, or the same step with a problem. */
        R after(R r, Outcome o);

        /** Why the last try of the current step did not go through, when the plan keeps the record at that step; else null. */
        String problem(R r);

        /**
         * The longest the current step may take. Every step has one, a rollback's too: a step that passes it has
         * {@link Reason#TIMED_OUT} as its outcome and the plan decides, as for any failure.
         */
        Duration deadline(R r);

        /** The current step in words, for the log. */
        String describe(R r);

        /**
         * The record when its step failed the {@link Retry}'s tries in a row: ended (a take's delete-copy before its
         * start ends rolled back, the copy left), or as it stands, waiting for whatever carries it on.
         */
        default R gaveUp(R r) {
            return r;
        }
    }

    /**
     * Retry is the one retry policy of every operation: a step the plan keeps at the same step (it failed where it must
     * not roll back: from a take's switch on, a rollback's own steps, a backup's unfence) is tried again {@link #between}
     * apart, {@link #tries} times in a row; then the runner lets go and the plan says what the record becomes
     * ({@link Plan#gaveUp}). Ten tries three seconds apart (half a minute and the steps' own time) ride out an agent
     * restarted or a push in progress, as the take's five and the restore's twenty did, and end quickly enough that an
     * operator sees the record waiting with its problem instead of a runner retrying for ever. What lets go is carried
     * on by the same operation asked again ({@code mesh take}, following a restore), by the controller's start, and for
     * a backup (whose module stays stopped until its unfence goes through, so it was never given up) by the watch.
     */
    public record Retry(int tries, Duration between) {

        public static final Retry STANDARD = new Retry(10, Duration.ofSeconds(3));

        /** Whether a step that failed {@code failed} times in a row is tried again. */
        public boolean again(int failed) {
            return failed < tries;
        }
    }
}
