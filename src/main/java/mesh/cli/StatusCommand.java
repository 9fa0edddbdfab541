package mesh.cli;

import mesh.model.ComponentState;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.client.ControllerApi;
import mesh.wire.HostStatus;
import mesh.wire.NodeStatus;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Each node as the store knows it and as its agent says it is now.",
            "Per node: the generation last sent and acknowledged (the store's view), the generation its agent "
                    + "applied and how many components run (asked now, 2 s at most), and what needs attention if anything does "
                    + "(agent not answering, behind, failing, converging); then one line per process: its state, pid, restarts "
                    + "and last exit status; then one line per component that is not running healthy: starting, unhealthy, "
                    + "crash-looping (restarts, last exit), failing (the reason), stopped, missing, outdated or fenced (a take "
                    + "keeps it stopped). RUNNING counts the components running with their health check passing. Then one line "
                    + "per edge node: the routes its Caddy serves and since when, and the configuration it refused, with Caddy's message.",
            "SEEN is how long ago the agent last looked at its engine (it looks every MESH_HOST_INTERVAL); VERSION "
                    + "is the build its agent runs; on stderr, a warning when the controller and the agents are not all one build.",
            "--refresh has every agent look now before it answers: an agent waits at most 10 s for its pass, the controller at most 12 s for each agent.",
            "Then one line per take under way ('mesh take'): its module, nodes and step (in -o json: 'takes').",
            "Then one line per module with backups: its last backup, its schedule, and a warning when the backups "
                    + "land on the registry of the module's own node (in -o json: 'backups'; docs/backup.md).",
            "Then the age and place of the seat's newest state backup (docs/rebuild.md), and on stderr a warning when the "
                    + "mesh cannot be rebuilt if the seat is lost: no recovery passphrase is set, or no state backup was made.",
            "Then, when the seat has a standby ('mesh seat add'), the seat and its epoch, and each standby: in sync and "
                    + "synchronous, catching up (its lag), or not in sync since when, and whether the seat's commits still wait for it (docs/seat.md).",
            "On stderr, a warning from 30 days before the controller's certificate, the mesh CA or a node's agent "
                    + "certificate expires (-o json: each agent's 'certificateNotAfter').",
            "Exit 0 when every node is up to date and running everything; 1 otherwise."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh status",
            "  mesh status --refresh",
            "      every agent looks at its engine now before it answers",
            "  mesh status -o json"})
public class StatusCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @picocli.CommandLine.Option(names = "--refresh", description = "have every agent look at its engine now, before it answers")
    boolean refresh;

    @Override
    public Integer call() {
        ControllerClient client = ControllerClient.fromEnvironment();
        List<NodeStatus> nodes = client.api().status(refresh);
        java.time.Instant now = java.time.Instant.now();
        // from 30 days before the controller's certificate or the mesh CA expires (docs/trust.md)
        client.certificateWarnings(now).forEach(w -> output.error(spec, "mesh: " + w));
        agentCertificateWarnings(nodes, now).forEach(w -> output.error(spec, "mesh: " + w));
        BuildLines.mix(BuildLines.controller(client), agentBuilds(nodes)).ifPresent(w -> output.error(spec, "mesh: " + w));
        mesh.wire.StateBackupsView stateBackups = client.optional(ControllerApi::stateBackups, null);
        StateBackupLines.warning(stateBackups).ifPresent(w -> output.error(spec, "mesh: " + w));
        if (format.json()) {
            output.json(spec, nodes);
        } else {
            output.table(spec, List.of("NODE", "SENT", "ACKED", "APPLIED", "RUNNING", "SEEN", "VERSION", "STATE"), nodes.stream()
                    .map(n -> Arrays.asList(n.node().name() + (n.node().cordoned() ? " (cordoned)" : ""), Long.toString(n.node().generation()),
                            Long.toString(n.node().ackedGeneration()),
                            n.agent() == null ? "-" : Long.toString(n.agent().appliedGeneration()),
                            n.agent() == null ? "-" : running(n.agent()),
                            n.agent() == null ? "-" : Times.human(n.agent().lastPass(), now),
                            n.agent() == null ? "-" : BuildLines.cell(n.agent().build()), n.state())).toList());
            nodes.stream().filter(n -> n.agent() != null).forEach(n -> n.agent().components().stream()
                    .filter(c -> c.process() != null)
                    .forEach(c -> output.line(spec, process(n.node().name(), c))));
            nodes.stream().filter(n -> n.agent() != null).forEach(n -> n.agent().components().stream()
                    .filter(c -> c.state() != ComponentState.RUNNING)
                    .forEach(c -> output.line(spec, component(n.node().name(), c))));
            nodes.stream().filter(n -> n.agent() != null && n.agent().edge() != null)
                    .forEach(n -> output.line(spec, edge(n.node().name(), n.agent().edge())));
            takes(ControllerClient.fromEnvironment()).forEach(t -> output.line(spec, take(t)));
            ControllerClient.fromEnvironment().optional(c -> c.drains(true), List.<mesh.wire.DrainView>of())
                    .forEach(d -> output.line(spec, drain(d)));
            nodes.stream().flatMap(n -> n.backups().stream()).forEach(b -> BackupLines.status(b, now).forEach(l -> output.line(spec, l)));
            StateBackupLines.newest(stateBackups, now).ifPresent(l -> output.line(spec, l));
            SeatLines.of(client.optional(ControllerApi::seats, null)).forEach(l -> output.line(spec, l));
        }
        List<String> attention = nodes.stream().filter(n -> !n.ok()).map(n -> n.node().name()).toList();
        if (attention.isEmpty()) {
            return ExitCodes.OK;
        }
        output.error(spec, "mesh: " + attention.size() + (attention.size() == 1 ? " node needs" : " nodes need") + " attention: "
                + String.join(", ", attention));
        return ExitCodes.FAILED;
    }

    /**
     * One warning per node whose agent's certificate expires within 30 days or has expired (CertExpiry), from
     * the expiry its agent reports; an agent on plain HTTP, or older than the field, reports none and gets none.
     */
    static List<String> agentCertificateWarnings(List<NodeStatus> nodes, java.time.Instant now) {
        List<String> warnings = new java.util.ArrayList<>();
        for (NodeStatus n : nodes) {
            String notAfter = n.agent() == null ? null : n.agent().certificateNotAfter();
            if (notAfter == null) {
                continue;
            }
            String what = "node " + n.node().name() + "'s agent certificate";
            try {
                mesh.trust.CertExpiry.warning(what, java.time.Instant.parse(notAfter), now).ifPresent(warnings::add);
            } catch (java.time.format.DateTimeParseException e) {
                warnings.add("warning: " + what + ": its agent reports an expiry that is not an instant ('" + notAfter + "')");
            }
        }
        return warnings;
    }

    /** The build of each agent that answered, in words; one that answered without a build runs one from before them. */
    static java.util.Map<String, String> agentBuilds(List<NodeStatus> nodes) {
        java.util.Map<String, String> builds = new java.util.LinkedHashMap<>();
        nodes.stream().filter(n -> n.agent() != null).forEach(n -> builds.put(n.node().name(),
                n.agent().build() == null ? BuildLines.TOO_OLD : n.agent().build().words()));
        return builds;
    }

    /** The takes under way, read with the same client; none when the controller does not say (an older one). */
    static List<mesh.wire.TakeView> takes(ControllerClient controller) {
        // the nodes' status is what status is for; an older controller has no takes to show
        return controller.optional(ControllerApi::takes, List.of());
    }

    /** One line per take: {@code take web n1 -> n2 (epoch 7): step copy: copy data: 12 MB of 200 MB, ...}. */
    static String take(mesh.wire.TakeView t) {
        return "take " + t.module() + " " + (t.from() == null ? "(nowhere)" : t.from()) + " -> " + t.to() + " (epoch " + t.epoch()
                + "): step " + t.step() + (t.copy() != null ? ": " + TakeLines.progress(t.copy()) : "")
                + (t.error() != null ? ", rolling back: " + t.error() : "")
                + (t.problem() != null ? ", " + (t.active() ? "trying again: " : "waiting for 'mesh take': ") + t.problem() : "");
    }

    /** One line per drain under way: {@code drain n2 (step move): 3 moved, 1 failed, 8 pending}. */
    static String drain(mesh.wire.DrainView d) {
        java.util.Map<mesh.model.DrainModuleState, Long> counts = new java.util.EnumMap<>(mesh.model.DrainModuleState.class);
        d.modules().forEach(m -> counts.merge(m.state(), 1L, Long::sum));
        return "drain " + d.node() + " (step " + d.step() + "): " + (counts.isEmpty() ? "placing its modules"
                : String.join(", ", counts.entrySet().stream().map(e -> e.getValue() + " " + e.getKey().word()).toList()))
                + (d.problem() != null ? ", " + (d.active() ? "trying again: " : "waiting for 'mesh drain " + d.node() + "': ")
                + d.problem() : "") + (d.active() ? "" : ", no controller carries it on: 'mesh drain " + d.node() + "' does");
    }

    /** One line per process: {@code ace/app.web process running, pid 4242, 2 restarts, last exit: exit 1 at T}. */
    static String process(String node, HostStatus.Component c) {
        HostStatus.Process p = c.process();
        return node + "/" + c.name() + " process " + p.state() + (p.pid() > 0 ? ", pid " + p.pid() : "")
                + ", " + p.restarts() + (p.restarts() == 1 ? " restart" : " restarts")
                + (p.lastExit() == null ? "" : ", last exit: " + p.lastExit() + " at " + p.lastExitAt())
                + (p.nextStartAt() == null ? "" : ", next start at " + p.nextStartAt());
    }

    /**
     * One line per edge node: {@code zurag edge: 2 routes loaded at T: a.zurag.be, b.zurag.be}, then
     * what is not served and why ({@code ; refused: Caddy refused the routes: …; not served: c.zurag.be}).
     */
    static String edge(String node, mesh.wire.EdgeStatus e) {
        String loaded = e.routes().size() + (e.routes().size() == 1 ? " route" : " routes")
                + (e.loadedAt() == null ? " loaded" : " loaded at " + e.loadedAt())
                + (e.routes().isEmpty() ? "" : ": " + String.join(", ", e.routes()));
        String problem = e.error() == null ? "" : (e.refused() ? "; refused: " : "; ") + e.error();
        List<String> missing = e.pending().stream().filter(r -> !e.routes().contains(r)).toList();
        return node + " edge: " + loaded + problem + (missing.isEmpty() ? "" : "; not served: " + String.join(", ", missing));
    }

    /** One line per component that is not running healthy: {@code ace/web crash-looping: 4 restarts, last exit code 1}. */
    static String component(String node, HostStatus.Component c) {
        return node + "/" + c.name() + " " + c.state() + (c.why() == null ? "" : ": " + c.why());
    }

    static String running(HostStatus agent) {
        long running = agent.components().stream().filter(c -> c.state() == ComponentState.RUNNING).count();
        return running + "/" + agent.components().size();
    }
}
