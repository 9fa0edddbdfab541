package mesh.host;

import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * KeepFences, first in a pass, stops whatever of a fenced module runs (docs/take.md): after a restart (the
 * agent may have been killed between recording a fence and stopping the module) and behind the agent's
 * back. A fence is honoured by every apply too ({@link HostIntake#unfenced}); this step is what makes a
 * fenced module that runs anyway stop.
 */
final class KeepFences implements PassStep {

    private final Supplier<Set<String>> fenced;
    private final Predicate<String> runs;
    private final Function<String, java.util.List<String>> stop;
    private final Consumer<Set<String>> seen;
    private final Consumer<String> log;

    /** {@code fenced}: the modules fenced now; {@code runs} / {@code stop}: a module's; {@code seen}: where the fences are kept for the status. */
    KeepFences(Supplier<Set<String>> fenced, Predicate<String> runs, Function<String, java.util.List<String>> stop,
               Consumer<Set<String>> seen, Consumer<String> log) {
        this.fenced = fenced;
        this.runs = runs;
        this.stop = stop;
        this.seen = seen;
        this.log = log;
    }

    @Override
    public void run(Context pass) {
        Set<String> modules = fenced.get();
        seen.accept(modules);
        for (String module : modules) {
            if (runs.test(module)) {
                log.accept("module " + module + " is fenced; stopping what of it runs: " + stop.apply(module));
            }
        }
    }
}
