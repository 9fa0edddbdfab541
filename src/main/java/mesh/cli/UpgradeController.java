package mesh.cli;

import java.time.Duration;
import java.util.List;
import mesh.model.Poll;
import mesh.plan.UpgradeModules;
import mesh.wire.Build;
import mesh.wire.ManifestFile;

/**
 * UpgradeController is the controller's move in {@code mesh upgrade}: its catalogue entry (mesh-controller, as mesh install
 * added it) given the new build's bundle and pushed to the seat, whose agent replaces exactly that process; then the
 * controller is asked its build until it answers on the new one, and the longest time it did not answer is said. Every
 * other container and process of the seat must be as before.
 */
final class UpgradeController {

    /** How often the controller is asked while it moves: the gap it reports is as fine as this. */
    static final Duration ASK = Duration.ofMillis(200);

    private final UpgradeRun run;

    UpgradeController(UpgradeRun run) {
        this.run = run;
    }

    /** Null when the controller answers on the new build, else why not. */
    String move(String bundle, Duration each) {
        String seat = run.seat();
        List<UpgradeModules.Running> before = run.running(seat);
        mesh.wire.ModuleDetail detail = run.api().module(UpgradeRun.CONTROLLER);
        String yaml;
        try {
            yaml = UpgradeModules.controllerWith(detail.manifest(), bundle);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        run.say().accept("the controller: its bundle set to " + bundle + ", pushed to the seat " + seat);
        run.api().addCatalogue(List.of(new ManifestFile(UpgradeRun.CONTROLLER + ".yaml", yaml)));
        String stopped = run.sent(seat);
        if (stopped != null) {
            return stopped;
        }
        var seen = new Object() {
            long lastAnswer = System.nanoTime();
            long longestGap;
            Build answered;
        };
        try {
            Poll.until(each, ASK, () -> {
                try {
                    seen.answered = run.api().build();
                    long now = System.nanoTime();
                    seen.longestGap = Math.max(seen.longestGap, now - seen.lastAnswer);
                    seen.lastAnswer = now;
                    return run.same(seen.answered) ? Poll.got(seen.answered) : Poll.notYet("answers on an older build");
                } catch (RuntimeException e) {
                    return Poll.notYet("not answering while the seat's agent replaces it");
                }
            });
        } catch (java.util.concurrent.CancellationException e) {
            return "interrupted while the controller moved";
        }
        Build answered = seen.answered;
        long longestGap = seen.longestGap;
        if (answered == null || !run.same(answered)) {
            return "the controller did not answer on mesh " + run.target().words() + " within " + each.toSeconds() + " s"
                    + (answered == null ? "" : " (it answers on mesh " + answered.words() + ")");
        }
        run.say().accept(String.format("the controller answers on mesh %s; it did not answer for %.1f s at most", run.target().words(),
                longestGap / 1e9));
        List<String> disturbed = UpgradeModules.disturbed(before, run.running(seat), List.of(UpgradeRun.CONTROLLER));
        return disturbed.isEmpty() ? null : "the controller runs the new build, but on the seat " + String.join("; ", disturbed);
    }
}
