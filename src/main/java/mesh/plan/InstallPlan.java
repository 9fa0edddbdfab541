package mesh.plan;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * InstallPlan is what {@code mesh install} will do, decided purely from whether it seats a new mesh
 * or joins one, and which steps the state dir records as done. The runner carries it out.
 */
public final class InstallPlan {

    /** Action is one step and whether it is already done (then it is only reported). */
    public record Action(InstallStep step, boolean alreadyDone) {
    }

    private static final List<InstallStep> SEAT = List.of(InstallStep.PREFLIGHT, InstallStep.AGENT, InstallStep.STORE,
            InstallStep.REGISTRY, InstallStep.BUNDLE, InstallStep.CONTROLLER, InstallStep.PIVOT, InstallStep.CONFIG);
    private static final List<InstallStep> JOIN = List.of(InstallStep.PREFLIGHT, InstallStep.AGENT, InstallStep.JOIN);
    /**
     * A rebuild: the keys written back before the agent (its certificate is issued by the backup's CA), the store's
     * rows loaded before the bundle and the controller (which then find the mesh as it was), the fleet adopted last.
     */
    private static final List<InstallStep> REBUILD = List.of(InstallStep.PREFLIGHT, InstallStep.KEYS, InstallStep.AGENT,
            InstallStep.STORE, InstallStep.LOAD, InstallStep.REGISTRY, InstallStep.BUNDLE, InstallStep.CONTROLLER,
            InstallStep.PIVOT, InstallStep.CONFIG, InstallStep.ADOPT);

    private InstallPlan() {
    }

    /**
     * The actions, in order. Preflight runs again on a rerun only while nothing after it is done: once
     * the agent is up, its ports are taken by mesh itself, and checking them again would refuse the resume.
     */
    public static List<Action> plan(boolean join, Set<InstallStep> done) {
        return plan(join ? JOIN : SEAT, done);
    }

    /** The actions of a rebuild from a state backup ({@code mesh install --from-backup}), in order. */
    public static List<Action> rebuild(Set<InstallStep> done) {
        return plan(REBUILD, done);
    }

    private static List<Action> plan(List<InstallStep> steps, Set<InstallStep> done) {
        List<Action> actions = new ArrayList<>();
        boolean anyLaterDone = steps.stream().skip(1).anyMatch(done::contains);
        for (InstallStep s : steps) {
            boolean isDone = done.contains(s) || (s == InstallStep.PREFLIGHT && anyLaterDone);
            actions.add(new Action(s, isDone));
        }
        return List.copyOf(actions);
    }

    /** Steps are done in order: a step recorded done after one that is not (a journal edited by hand) is redone. */
    public static List<Action> inOrder(List<Action> actions) {
        List<Action> out = new ArrayList<>();
        boolean gap = false;
        for (Action a : actions) {
            gap = gap || !a.alreadyDone();
            out.add(gap ? new Action(a.step(), false) : a);
        }
        return List.copyOf(out);
    }
}
