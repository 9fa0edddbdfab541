package mesh.install;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import mesh.plan.InstallPlan;
import mesh.plan.InstallStep;

/**
 * InstallRunner carries out an {@link InstallPlan}: each step printed as it runs, with its
 * duration; a step already done printed as such and not run; each step recorded in the journal
 * when it completes, so a rerun after a failure or a kill resumes there. It stops at the first
 * step that fails.
 */
public final class InstallRunner {

    /** Steps is what each step does; it throws {@link InstallFailure} with a message for the operator. */
    public interface Steps {
        void run(InstallStep step);
    }

    /** Outcome is one step as it went: {@code done}, {@code already done} or {@code failed}, with its time. */
    public record Outcome(String step, String result, long millis, String error) {
    }

    private final InstallJournal journal;
    private final Consumer<String> say;
    private final LongSupplier nanoTime;

    public InstallRunner(InstallJournal journal, Consumer<String> say, LongSupplier nanoTime) {
        this.journal = journal;
        this.say = say;
        this.nanoTime = nanoTime;
    }

    /** Runs the plan; the outcomes of the steps reached, the last one failed if any failed. */
    public List<Outcome> run(List<InstallPlan.Action> plan, Steps steps) {
        List<Outcome> outcomes = new ArrayList<>();
        int n = 0;
        for (InstallPlan.Action a : plan) {
            n++;
            String head = "[" + n + "/" + plan.size() + "] " + a.step().word() + ": ";
            if (a.alreadyDone()) {
                say.accept(head + "already done");
                outcomes.add(new Outcome(a.step().word(), "already done", 0, null));
                continue;
            }
            say.accept(head + a.step().title() + " …");
            long start = nanoTime.getAsLong();
            try {
                steps.run(a.step());
            } catch (RuntimeException e) {
                // an InstallFailure speaks to the operator; anything else still says what it was about
                long ms = Duration.ofNanos(nanoTime.getAsLong() - start).toMillis();
                say.accept(head + "failed after " + seconds(ms) + ": " + e.getMessage());
                outcomes.add(new Outcome(a.step().word(), "failed", ms, e.getMessage()));
                return outcomes;
            }
            journal.markDone(a.step());
            long ms = Duration.ofNanos(nanoTime.getAsLong() - start).toMillis();
            say.accept(head + "done in " + seconds(ms));
            outcomes.add(new Outcome(a.step().word(), "done", ms, null));
        }
        return outcomes;
    }

    static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.1f s", millis / 1000.0);
    }
}
