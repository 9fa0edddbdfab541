package mesh.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import mesh.bundle.BundleLimits;
import mesh.bundle.BundlePush;
import mesh.bundle.BundleRef;
import mesh.bundle.HttpRegistry;
import mesh.client.ControllerApi;
import mesh.model.Poll;
import mesh.plan.UpgradeModules;
import mesh.plan.UpgradePlan;
import mesh.wire.Build;
import mesh.wire.HostStatus;
import mesh.wire.ManifestFile;
import mesh.wire.NodeStatus;
import mesh.wire.PushReport;
import mesh.wire.PushRequest;

/**
 * UpgradeRun carries out {@code mesh upgrade} through the controller's API ({@link UpgradePlan} decides what moves): it
 * publishes this build as a bundle, moves each agent with a one-off module running {@code mesh host upgrade-self}
 * there, checks the node after each move (the agent on this build, converged, every container and process as before),
 * and moves the controller last (first when going back). What it does is read again from the mesh at every run, so an
 * upgrade that stopped is carried on by running it again: the nodes already moved are skipped.
 */
final class UpgradeRun {

    /** How often a moving node (or the controller) is asked again. */
    static final Duration POLL = Duration.ofSeconds(1);
    static final String CONTROLLER = mesh.plan.SeatCatalogue.CONTROLLER;

    /** Report is what {@code -o json} prints: the build moved to, each move, the nodes already on it, and where it stopped. */
    record Report(String build, boolean dryRun, List<Move> moves, List<String> already, String stopped) {
    }

    /** Move is one part moved (or, in a dry run, to move): a node's agent or the controller, from which build, how long it took. */
    record Move(String part, String from, String to, double seconds, String note) {
    }

    private final ControllerClient client;
    private final ControllerApi api;
    private final Consumer<String> say;
    private final Build target = Build.current();
    private String seat;

    UpgradeRun(ControllerClient client, Consumer<String> say) {
        this.client = client;
        this.api = client.api();
        this.say = say;
    }

    /** The plan, from the controller's build, every node's status asked now, and where the controller runs. */
    UpgradePlan.Plan plan(List<String> named) {
        Build controller;
        try {
            controller = api.build();
        } catch (mesh.wire.CallFailure r) {
            if (r.noSuchCall()) {
                throw new VerbFailure(tooOld(client.base()), r);
            }
            throw r;
        }
        mesh.wire.ModuleDetail c = api.module(CONTROLLER);
        seat = c.taken() != null ? c.taken() : c.assigned();
        List<UpgradePlan.Agent> agents = new ArrayList<>();
        for (NodeStatus n : api.status(true)) {
            Build b = n.agent() == null ? null : mesh.wire.WireRule.reported(n.agent().build());
            agents.add(new UpgradePlan.Agent(n.node().name(), n.node().name().equals(seat), b == null ? null : level(b), b != null && same(b)));
        }
        return UpgradePlan.plan(level(target), level(controller), same(controller), agents, named);
    }

    /**
     * Why a mesh whose controller does not say its build cannot be upgraded, and what to do instead: the plan needs every
     * part's build, and a controller from before builds were reported (before commit f5de2fe, 2 December 2026) has no
     * {@code GET /v1/mesh/build}.
     */
    static String tooOld(String controller) {
        return "the controller at " + controller + " runs a mesh older than build reporting (it has no GET /v1/mesh/build),"
                + " which 'mesh upgrade' cannot move: it moves a mesh whose controller says its build, a build from 2 December"
                + " 2026 on (commit f5de2fe), whose 'mesh --version' names its commit, as 'mesh 0.1.0 (4f70c7e1a2b3)'. Nothing"
                + " was changed. Move an older mesh by installing this build over it, node by node: 'mesh uninstall' (with"
                + " the old build; it keeps the node's volumes and the install's secrets), then 'mesh install' with this"
                + " build on the same machine, which brings the same mesh back (docs/cli.md, \"uninstall\")";
    }

    Report dryRun(UpgradePlan.Plan plan) {
        say.accept("mesh upgrade to mesh " + target.words() + " (wire level " + target.wireLevel() + "), a dry run:");
        List<Move> moves = new ArrayList<>();
        for (UpgradePlan.Step s : plan.steps()) {
            say.accept("  would move " + s.words());
            moves.add(new Move(part(s), null, target.words(), 0, "would move"));
        }
        plan.already().forEach(n -> say.accept("  node " + n + " already runs it"));
        return new Report(target.words(), true, moves, plan.already(), pending());
    }

    /** Carries the plan out; the report says where it stopped, if it did. */
    Report carryOut(UpgradePlan.Plan plan, Duration each) {
        List<Move> moves = new ArrayList<>();
        leftOver();
        String waiting = pending();
        if (waiting != null) {
            return new Report(target.words(), false, moves, plan.already(), waiting);
        }
        plan.already().forEach(n -> say.accept("node " + n + " already runs mesh " + target.words()));
        if (plan.steps().isEmpty()) {
            say.accept("nothing to move: the mesh runs mesh " + target.words());
            return new Report(target.words(), false, moves, plan.already(), null);
        }
        String bundle = publish();
        for (UpgradePlan.Step s : plan.steps()) {
            long began = System.nanoTime();
            String stopped;
            try {
                stopped = s.controller() ? new UpgradeController(this).move(bundle, each) : moveAgent(s.node(), bundle, each);
            } catch (VerbFailure | mesh.wire.CallFailure e) {
                stopped = e.getMessage();
            }
            double seconds = (System.nanoTime() - began) / 1e9;
            if (stopped != null) {
                String why = "the upgrade stopped at " + s.words() + ": " + stopped + "; the parts after it were not moved"
                        + (moves.isEmpty() ? "" : " (moved: " + String.join(", ", moves.stream().map(Move::part).toList()) + ")")
                        + ". Run 'mesh upgrade' again with this build once that is mended, or go back by running 'mesh upgrade'"
                        + " with the build the rest of the mesh runs";
                return new Report(target.words(), false, moves, plan.already(), why);
            }
            moves.add(new Move(part(s), null, target.words(), Math.round(seconds * 10) / 10.0, "moved"));
            say.accept(s.words() + " runs mesh " + target.words() + String.format(" (%.1f s)", seconds));
        }
        return new Report(target.words(), false, moves, plan.already(), null);
    }

    /** Removes the one-off modules a run that was killed left behind (assigned or not), so this run starts clean. */
    private void leftOver() {
        for (mesh.wire.ModuleView m : api.catalogue()) {
            if (!m.module().startsWith(UpgradeModules.PREFIX)) {
                continue;
            }
            say.accept("removing " + m.module() + ", left by an upgrade that did not finish");
            if (m.assigned() != null) {
                removeOneOff(m.assigned(), m.module());
            } else {
                api.removeModule(m.module());
            }
        }
    }

    /** Why the upgrade would push more than its own modules: changes wait to be pushed (a dry-run push says which); null when none. */
    private String pending() {
        PushReport dry = api.push(new PushRequest(List.of(), true, true));
        List<String> waiting = dry.nodes().stream().filter(n -> n.outcome() != PushReport.Outcome.UNCHANGED)
                .map(n -> n.node() + " (" + n.outcome().name().toLowerCase(java.util.Locale.ROOT) + ")").toList();
        return waiting.isEmpty() ? null : "changes wait to be pushed to " + String.join(", ", waiting)
                + ", and the upgrade pushes to each node it moves: run 'mesh push' first (or undo them), then 'mesh upgrade'";
    }

    /** Publishes this build (its app folder and launcher, or the native executable) as bundle {@code mesh-upgrade:TAG}. */
    private String publish() {
        String registry = BundleCommand.registryUrl(null);
        Path staging = null;
        try {
            staging = Files.createTempDirectory("mesh-upgrade");
            Path app = staging.resolve("app");
            mesh.install.AgentSetup.copyRunning(app, false);
            String tag = (target.version() + (target.commit() == null ? "" : "-" + target.commit())).replaceAll("[^A-Za-z0-9_.-]", "_");
            BundlePush.Pushed pushed = new BundlePush(new HttpRegistry(registry), BundleLimits.DEFAULT)
                    .push(app, BundleRef.parse("mesh-upgrade:" + tag), "bin/mesh", p -> p.endsWith(".aot"));
            say.accept("published mesh " + target.words() + " as " + pushed.reference() + " (" + pushed.entries() + " files, "
                    + pushed.layerBytes() / 1024 + " KiB) to " + registry);
            ArtifactStoreNote.of(client, registry, "the controller's bundle " + pushed.reference()).ifPresent(say);
            return pushed.reference();
        } catch (IOException | RuntimeException e) {
            throw new VerbFailure("mesh upgrade: cannot publish this build to the artifact store at " + registry + ": " + e.getMessage(), e);
        } finally {
            if (staging != null) {
                try {
                    mesh.install.AgentSetup.deleteTree(staging);
                } catch (IOException e) {
                    // a temporary folder: the machine's cleaning removes it
                }
            }
        }
    }

    /** Moves node {@code node}'s agent; null when it did, else why not. The one-off module is removed either way. */
    private String moveAgent(String node, String bundle, Duration each) {
        String module = UpgradeModules.module(node);
        List<UpgradeModules.Running> before = running(node);
        say.accept("node " + node + ": running mesh host upgrade-self there (" + module + ")");
        String stopped;
        try {
            api.addCatalogue(List.of(new ManifestFile(module + ".yaml", UpgradeModules.oneOff(node, bundle))));
            api.assign(node, module);
            stopped = sent(node);
            if (stopped == null) {
                stopped = awaitAgent(node, each);
            }
            if (stopped == null) {
                List<String> disturbed = UpgradeModules.disturbed(before, running(node), List.of());
                if (!disturbed.isEmpty()) {
                    stopped = "node " + node + "'s agent runs the new build, but " + String.join("; ", disturbed);
                }
            }
        } finally {
            removeOneOff(node, module);
        }
        if (stopped == null) {
            say.accept("node " + node + ": every container and process as before (" + before.size() + " components)");
        }
        return stopped;
    }

    /** Waits until the node's agent answers on this build, converged; null then, else why not (the one-off's log when it failed). */
    private String awaitAgent(String node, Duration each) {
        Poll.Result<String> r;
        try {
            // answered: null when the agent runs this build, converged; else why the one-off failed
            r = Poll.until(each, POLL, () -> {
                NodeStatus st = status(node);
                HostStatus a = st == null ? null : st.agent();
                if (a == null) {
                    return Poll.notYet(st == null ? "not in the mesh's status" : "its agent did not answer (" + st.agentError() + ")");
                }
                HostStatus.Component oneOff = a.components().stream()
                        .filter(c -> c.name().equals(UpgradeModules.component(node))).findFirst().orElse(null);
                if (oneOff != null && oneOff.process() != null && oneOff.process().lastExit() != null) {
                    return Poll.got("mesh host upgrade-self ended (" + oneOff.process().lastExit() + ") on node " + node + ": "
                            + logTail(node) + "; its agent still runs mesh " + mesh.wire.WireRule.reported(a.build()).words());
                }
                Build b = mesh.wire.WireRule.reported(a.build());
                return same(b) && a.converged() ? Poll.got(null)
                        : Poll.notYet("its agent runs mesh " + b.words() + (a.converged() ? "" : ", not converged"));
            });
        } catch (java.util.concurrent.CancellationException e) {
            throw new VerbFailure("interrupted");
        }
        if (r instanceof Poll.Answered<String> a) {
            return a.value();
        }
        return "node " + node + "'s agent did not answer on mesh " + target.words() + " within " + each.toSeconds() + " s (last seen: "
                + ((Poll.TimedOut<String>) r).lastWhy() + "; the one-off's log: " + logTail(node) + ")";
    }

    /** Removes the node's one-off module: unassigned, pushed to the node (its process stopped), out of the catalogue. */
    private void removeOneOff(String node, String module) {
        try {
            api.unassign(node, module, List.of());
            api.push(new PushRequest(List.of(node), false, true));
            api.removeModule(module);
        } catch (RuntimeException e) {
            say.accept("node " + node + ": could not remove " + module + " (" + e.getMessage() + "); 'mesh unassign " + node + " "
                    + module + "', 'mesh push' and 'mesh catalogue remove " + module + "' do");
        }
    }

    /** Null when the push sent the node its declaration, else why not. */
    String sent(String node) {
        PushReport r = api.push(new PushRequest(List.of(node), false, true));
        return r.nodes().stream().filter(n -> n.node().equals(node) && n.outcome() != PushReport.Outcome.SENT)
                .map(n -> "the push to node " + node + " was not sent (" + n.outcome().name().toLowerCase(java.util.Locale.ROOT)
                        + (n.error() == null ? "" : ": " + n.error()) + ")")
                .findFirst().orElse(null);
    }

    /** The last lines the node's one-off process wrote, through the controller ({@code mesh logs}); what went wrong if it cannot. */
    private String logTail(String node) {
        List<String> lines = new ArrayList<>();
        try {
            String q = new mesh.plan.LogQuery(null, 5, false).query();
            client.lines(ControllerApi.logs(UpgradeModules.module(node), UpgradeModules.component(node), q), mesh.wire.LinePublisher.SILENCE,
                    text -> {
                        mesh.wire.LogLine line = mesh.wire.LogLine.read(text);
                        if (line != null && line.output()) {
                            lines.add(line.line());
                        }
                    });
        } catch (RuntimeException e) {
            return "(its log could not be read: " + e.getMessage() + ")";
        }
        return lines.isEmpty() ? "(it wrote nothing)" : String.join(" | ", lines);
    }

    NodeStatus status(String node) {
        return api.status(true).stream().filter(n -> n.node().name().equals(node)).findFirst().orElse(null);
    }

    /** What runs on the node now, as its agent says: each component's container id or process pid. */
    List<UpgradeModules.Running> running(String node) {
        NodeStatus st = status(node);
        if (st == null || st.agent() == null) {
            throw new VerbFailure("node " + node + "'s agent did not answer" + (st == null ? "" : " (" + st.agentError() + ")"));
        }
        return st.agent().components().stream().map(c -> new UpgradeModules.Running(c.name(), c.module(), c.containerId(),
                c.process() == null ? 0 : c.process().pid())).toList();
    }

    String seat() {
        return seat;
    }

    ControllerApi api() {
        return api;
    }

    Build target() {
        return target;
    }

    Consumer<String> say() {
        return say;
    }

    /** Whether {@code b} is this build: the same version, commit and wire level. */
    boolean same(Build b) {
        return Objects.equals(b.version(), target.version()) && Objects.equals(b.commit(), target.commit())
                && b.wireLevel() == target.wireLevel();
    }

    private static UpgradePlan.Level level(Build b) {
        return new UpgradePlan.Level(b.words(), b.wireLevel());
    }

    private String part(UpgradePlan.Step s) {
        return s.controller() ? "controller" : s.node();
    }
}
