package mesh.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import mesh.install.InstallJournal;
import mesh.install.InstallOptions;
import mesh.install.InstallRunner;
import mesh.install.JoinSteps;
import mesh.install.JoinedState;
import mesh.install.MachineFacts;
import mesh.install.SeatSteps;
import mesh.plan.InstallPlan;
import mesh.plan.InstallStep;
import mesh.plan.JoinRerun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "install",
        mixinStandardHelpOptions = true,
        description = {"Install mesh on this machine, as root: seat a new mesh, or join one (--join).",
            "",
            "Seating a new mesh runs these steps, each printed with its duration and recorded in the state dir, so "
                    + "running it again resumes where it stopped (a step done is reported 'already done'):",
            "  preflight   the engine answers (API 1.41+), ports 7700 7701 5000 5432 are free on the address,",
            "              the state dir is writable; a failure changes nothing",
            "  agent       writes CONFIG-DIR/host.env (0600) and the unit mesh-host.service, starts the agent",
            "              (under systemd; where systemd does not run, detached, logging into the state dir)",
            "  store       module mesh-store: PostgreSQL from --store-image (or the existing --store-url)",
            "  registry    module mesh-registry: the artifact store, from --registry-image",
            "  bundle      publishes this mesh as the controller's bundle to the artifact store",
            "  controller  a temporary controller adds this node, the built-in catalogue and pushes:",
            "              the agent runs the controller as a process on ADDRESS:7700",
            "  pivot       checks the controller (the node, the catalogue, everything running), ends the",
            "              temporary one",
            "  config      writes ~/.config/mesh/config (0600): the controller's URL and the operator token",
            "",
            "Joining (--join URL --token T --node NAME, the line 'mesh node add' prints) runs preflight, agent and "
                    + "join. On a node that joined, 'mesh install --join URL' without --token asks the controller for nothing: "
                    + "it starts the agent again if it does not answer, and says each step is already done.",
            "",
            "Rebuilding a lost seat from a state backup (--from-backup FILE|REF, its passphrase from --recovery-passphrase-file "
                    + "or the terminal) refuses a bad backup or a machine with a mesh before anything runs, then runs preflight, keys, "
                    + "agent, store, load, registry, bundle, controller, pivot, config and adopt: the same CA and tokens, the store's "
                    + "rows back, every other node adopted with nothing replaced (docs/rebuild.md)."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh install --address 10.77.0.11",
            "      seat a new mesh on this machine",
            "  mesh install --join https://10.77.0.11:7700 --token T --node bee --address 10.77.0.12",
            "      the line 'mesh node add bee' printed, run on bee",
            "  mesh install --from-backup /mnt/usb/mesh.backup --recovery-passphrase-file /root/pass",
            "      rebuild the lost seat on this machine from a state backup file"})
public class InstallCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Option(names = "--node", paramLabel = "NAME", description = "this node's name (default: the host name)")
    String node;

    @Option(names = "--address", paramLabel = "ADDR", description = "this node's mesh address, an IPv4 address of this machine"
            + " (default: that of the default route's interface)")
    String address;

    @Option(names = "--public-domain", paramLabel = "DOMAIN", description = "the domain this node's edge serves routes under")
    String publicDomain;

    @Option(names = "--store-url", paramLabel = "JDBC", description = "use this PostgreSQL (jdbc:postgresql://HOST:PORT/DB?user=U&password=P)"
            + " instead of raising mesh-store")
    String storeUrl;

    @Option(names = "--state-dir", paramLabel = "DIR", description = "where mesh keeps its state (default /var/lib/mesh)")
    Path stateDir = Path.of("/var/lib/mesh");

    @Option(names = "--config-dir", paramLabel = "DIR", description = "where the agent's settings and its unit are written (default /etc/mesh)")
    Path configDir = Path.of(mesh.plan.AgentUnit.DEFAULT_CONFIG_DIR);

    @Option(names = "--engine", paramLabel = "URL", description = "the Docker engine (default unix:///var/run/docker.sock)")
    String engine = mesh.host.HostSettings.DEFAULT_ENGINE;

    @Option(names = "--store-image", paramLabel = "IMAGE", description = "the store's image (default the official postgres:15, pinned)")
    String storeImage = InstallOptions.DEFAULT_STORE_IMAGE;

    @Option(names = "--registry-image", paramLabel = "IMAGE", description = "the artifact store's image (default the official registry:2, pinned)")
    String registryImage = InstallOptions.DEFAULT_REGISTRY_IMAGE;

    @Option(names = "--join", paramLabel = "URL", description = "join the mesh whose controller is at URL (instead of seating a new one)")
    String join;

    @Option(names = "--token", paramLabel = "HEX", description = "with --join: this node's one-time join token, as 'mesh node add' printed it (24 h)")
    String token;

    @Option(names = "--ca-hash", paramLabel = "sha256:HEX", description = "with --join: the mesh CA's hash, as 'mesh node add'"
            + " printed it; the controller's certificate must chain to that CA (nothing is trusted on first use)")
    String caHash;

    @Option(names = "--module-networks", paramLabel = "CIDR", description = "the IPv4 range this node's agent gives module"
            + " networks their /26 subnets from (default " + mesh.plan.NetworkRange.DEFAULT_TEXT + "); it must not overlap"
            + " this machine's own addresses or routes; written into host.env as MESH_HOST_NETWORKS, its setting")
    String moduleNetworks;

    @Option(names = "--recovery-passphrase-file", paramLabel = "FILE", description = "seating: the recovery passphrase the"
            + " state backups are sealed under (with --from-backup: the one the backup opens with), read from FILE (without it, asked on a terminal; the seat keeps only the key"
            + " derived from it; later: mesh seat passphrase)")
    Path recoveryPassphraseFile;

    @Option(names = "--from-backup", paramLabel = "FILE|REF", description = "rebuild the seat of a mesh whose seat is lost"
            + " from its state backup: a file, or a registry reference as 'mesh seat backup --to-node' printed it"
            + " (ADDR:5000/mesh-state:TAG); its passphrase from --recovery-passphrase-file or the terminal (docs/rebuild.md)")
    String fromBackup;

    /** Summary is the {@code -o json} document: where the mesh stands and how each step went. */
    public record Summary(String node, String address, String controller, String stateDir, boolean ok,
                          List<InstallRunner.Outcome> steps) {
    }

    @Override
    public Integer call() {
        if (fromBackup != null) {
            return new RebuildInstall(this).call();
        }
        JoinRerun.Verdict rerun = JoinRerun.decide(join, token, node, address, caHash,
                JoinedState.read(stateDir.toAbsolutePath()), stateDir.toAbsolutePath().toString());
        if (rerun.refusal() != null) {
            throw new VerbFailure("install refused, nothing was changed:\n  " + rerun.refusal());
        }
        String addr = rerun.address() != null ? rerun.address() : MachineFacts.defaultAddress();
        String name = rerun.node() != null ? rerun.node() : hostName();
        // the machine's own networks, read here at the edge only for the range given; judged in InstallInputs
        List<mesh.plan.NetworkRange.HostNet> networks = moduleNetworks == null ? List.of() : mesh.host.HostNetworks.read();
        List<String> problems = new mesh.plan.InstallInputs(name, addr, publicDomain, storeUrl, engine, join, token, caHash,
                moduleNetworks, networks, rerun.rerun()).problems();
        if (join != null && publicDomain != null) {
            problems = new java.util.ArrayList<>(problems);
            problems.add("--public-domain: a joining node's public domain is set on the controller: "
                    + "mesh node public-domain " + name + " " + publicDomain);
        }
        if (join != null && recoveryPassphraseFile != null) {
            problems = new java.util.ArrayList<>(problems);
            problems.add("--recovery-passphrase-file: only the seat keeps a recovery key; set it there (mesh seat passphrase)");
        }
        if (!problems.isEmpty()) {
            throw new VerbFailure("install refused, nothing was changed:\n  " + String.join("\n  ", problems));
        }
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        InstallOptions o = new InstallOptions(name, addr, publicDomain, storeUrl, stateDir.toAbsolutePath(),
                configDir.toAbsolutePath(), engine, storeImage, registryImage, join, token, Path.of(home), caHash,
                moduleNetworks);
        InstallJournal journal = new InstallJournal(o.stateDir());
        java.util.function.Consumer<String> say = format.json() ? line -> output.error(spec, line) : line -> output.line(spec, line);
        if (rerun.rerun()) {
            say.accept("node " + name + " joined this mesh before (" + o.tls().cert("agent")
                    + "): no join token is needed to bring its agent back");
        }
        List<InstallPlan.Action> plan = InstallPlan.inOrder(InstallPlan.plan(o.joining(), journal.done()));
        InstallRunner.Steps steps = o.joining() ? new JoinSteps(o, journal, say) : new SeatSteps(o, journal, say);
        if (journal.done().contains(mesh.plan.InstallStep.AGENT)) {
            anotherBuild(o);
            try {
                new mesh.install.AgentSetup(o, say).revive();
            } catch (RuntimeException e) {
                throw new VerbFailure(e.getMessage());
            }
        }
        mesh.trust.RecoveryKey recovery = o.joining() ? null : recoveryKey(o);
        List<InstallRunner.Outcome> outcomes = new InstallRunner(journal, say, System::nanoTime).run(plan, steps);
        boolean ok = outcomes.size() == plan.size() && outcomes.stream().noneMatch(s -> s.result().equals("failed"));
        if (ok && recovery != null) {
            keepRecoveryKey(o, recovery, say);
        }
        String controller = o.joining() ? join : "https://" + addr + ":7700";
        if (format.json()) {
            output.json(spec, new Summary(name, addr, controller, o.stateDir().toString(), ok, outcomes));
        } else if (ok) {
            nextSteps(o, controller);
        }
        return ok ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /**
     * A rerun from another build than the one installed here would leave that one running (its agent is brought back,
     * its app is not replaced): refused, nothing changed, with the path that moves a mesh to a new build.
     */
    private static void anotherBuild(InstallOptions o) {
        java.nio.file.Path app = o.stateDir().resolve("app");
        try {
            if (!java.nio.file.Files.isDirectory(app) || mesh.install.UpgradeSelf.runsThisBuild(app)) {
                return;
            }
        } catch (java.io.IOException e) {
            throw new VerbFailure("cannot tell which build is installed in " + app + ": " + e.getMessage());
        }
        throw new VerbFailure("install refused, nothing was changed: another build of mesh is installed here (" + app
                + "), and this one (mesh " + mesh.wire.Build.current().words() + ") would not replace it. To move the mesh"
                + " to this build node by node, nothing replaced, run 'mesh upgrade' with it (only this node: 'mesh upgrade"
                + " --node " + o.node() + "'; docs/upgrade.md)");
    }

    /**
     * The recovery key from --recovery-passphrase-file, or typed on a terminal when the seat has none yet; null without
     * either (the mesh then runs, and 'mesh status' says it cannot be rebuilt). Derived before any step runs, so a
     * refused passphrase changes nothing.
     */
    private mesh.trust.RecoveryKey recoveryKey(InstallOptions o) {
        if (recoveryPassphraseFile != null) {
            return RecoveryPassphrase.fromFile(recoveryPassphraseFile);
        }
        boolean has = java.nio.file.Files.isRegularFile(o.stateDir().resolve("install").resolve(mesh.trust.RecoveryKey.FILE));
        return has ? null : RecoveryPassphrase.fromTerminal();
    }

    private static void keepRecoveryKey(InstallOptions o, mesh.trust.RecoveryKey key, java.util.function.Consumer<String> say) {
        Path file = o.stateDir().resolve("install").resolve(mesh.trust.RecoveryKey.FILE);
        try {
            key.write(file);
        } catch (java.io.IOException e) {
            throw new VerbFailure("the mesh runs, but the recovery key could not be written to " + file + ": " + e.getMessage()
                    + "; set it with 'mesh seat passphrase'");
        }
        say.accept("recovery passphrase set: the seat keeps the key derived from it (" + file + "), never the passphrase");
    }

    private void nextSteps(InstallOptions o, String controller) {
        if (o.joining()) {
            output.line(spec, "node " + o.node() + " runs its agent at " + o.address() + ":7701; the controller at "
                    + controller + " sends it its declaration at the next push ('mesh status' shows it)");
            return;
        }
        output.line(spec, "");
        output.line(spec, "the mesh runs: its controller answers at " + controller + " (settings in "
                + o.home().resolve(".config/mesh/config") + ")");
        output.line(spec, "next:");
        output.line(spec, "  mesh node list                      this node, " + o.node());
        output.line(spec, "  mesh catalogue add FILE|DIR         your modules (docs/manifest.md)");
        output.line(spec, "  mesh assign " + o.node() + " MODULE && mesh push --wait");
        output.line(spec, "  mesh node add NAME --address ADDR   prints the line that joins another machine");
        output.line(spec, "  mesh status");
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName().toLowerCase(java.util.Locale.ROOT).split("\\.")[0];
        } catch (java.net.UnknownHostException e) {
            throw new VerbFailure("cannot tell this machine's name: give --node NAME");
        }
    }
}
