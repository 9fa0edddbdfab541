package mesh.host;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import mesh.model.Declaration;
import mesh.model.ObservedContainer;
import mesh.plan.StartHold;

/**
 * StartGate keeps the agent's start hold ({@link StartHold}, the rule): armed when the agent starts and again when
 * its engine answers after failing (unless a declaration came meanwhile), released by the first declaration accepted, over by itself after
 * {@link StartHold#HOLD}. While it holds, {@link HostIntake#unfenced} leaves the held modules out of every plan and the
 * supervisor launches none of their processes. Says once when it begins to hold a module back and once when it lets
 * go; asks for a pass when the hold runs out ({@code wakeAfter}).
 */
final class StartGate {

    private final Clock clock;
    private final Consumer<Duration> wakeAfter;
    private final Consumer<String> log;
    private volatile StartHold hold;
    private volatile boolean engineAway;
    /** A declaration was accepted since the engine failed: the controller has spoken, no need to hold on its return. */
    private volatile boolean heardWhileAway;
    private volatile Set<String> said = Set.of();

    StartGate(Clock clock, Consumer<Duration> wakeAfter, Consumer<String> log) {
        this.clock = clock;
        this.wakeAfter = wakeAfter;
        this.log = log;
        this.hold = new StartHold(clock.instant(), true);
    }

    /** Has every apply through {@code intake} leave out the modules this gate holds back; returns this gate. */
    StartGate holding(HostIntake intake) {
        intake.holdWith(this::held);
        return this;
    }

    /** Arms the hold from now (the agent's start, the engine's return) and asks for a pass when it runs out; says so if {@code say}. */
    void arm(boolean say, String why) {
        hold = StartHold.from(clock.instant());
        wakeAfter.accept(StartHold.HOLD.plusMillis(100));
        if (!say) {
            return;
        }
        log.accept(why + ": modules with data that do not run here wait until the controller is heard from or "
                + StartHold.HOLD.toSeconds() + " s pass");
    }

    /** A declaration was accepted: the controller has said what this node runs. */
    void heard() {
        if (hold.holding(clock.instant())) {
            log.accept("the controller was heard from: nothing is held back any more");
        }
        hold = hold.release();
        heardWhileAway = engineAway;
    }

    /** A pass failed on the engine: when it answers again, the hold is armed again. */
    void engineFailed() {
        if (!engineAway) {
            heardWhileAway = false;
        }
        engineAway = true;
    }

    /**
     * The engine answered: arms the hold again if it had failed (its containers stopped with it, and the node may have
     * been cut off meanwhile), unless a declaration was accepted since it failed.
     */
    void engineAnswered() {
        if (engineAway) {
            engineAway = false;
            if (!heardWhileAway) {
                arm(true, "the engine answers again");
            }
        }
    }

    /** The modules held back now, given the declaration and what runs, without a word (the supervisor's question). */
    Set<String> heldQuietly(Declaration d, List<ObservedContainer> observed) {
        return hold.held(d, observed, clock.instant());
    }

    /**
     * The modules held back now, given the declaration and what the engine showed just now (so it answers: a hold the
     * engine's return arms is armed before this answer, never after the plan it makes); says when that changes.
     */
    Set<String> held(Declaration d, List<ObservedContainer> observed) {
        engineAnswered();
        Instant now = clock.instant();
        Set<String> held = hold.held(d, observed, now);
        if (!held.equals(said)) {
            if (!held.isEmpty()) {
                log.accept("holding back " + String.join(", ", held) + " until the controller is heard from (at most until "
                        + hold.until() + ")");
            } else if (!said.isEmpty()) {
                log.accept("no longer holding back " + String.join(", ", said));
            }
            said = Set.copyOf(held);
        }
        return held;
    }
}
