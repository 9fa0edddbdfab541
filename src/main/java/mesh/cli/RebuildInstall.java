package mesh.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import mesh.install.InstallFailure;
import mesh.install.InstallJournal;
import mesh.install.InstallOptions;
import mesh.install.InstallRunner;
import mesh.install.MachineFacts;
import mesh.install.RebuildSteps;
import mesh.install.StateBackupRegistry;
import mesh.install.StateBackups;
import mesh.plan.InstallPlan;
import mesh.plan.InstallStep;
import mesh.plan.Rebuild;
import mesh.trust.RecoveryKey;
import mesh.trust.StateSeal;

/**
 * RebuildInstall is {@code mesh install --from-backup}: everything that can refuse is judged before any step runs
 * (the options, the artifact read and opened with the passphrase, the machine) and refused naming the reason, nothing
 * written; then the rebuild's steps run ({@link RebuildSteps}, docs/rebuild.md).
 */
final class RebuildInstall {

    private final InstallCommand c;

    RebuildInstall(InstallCommand command) {
        this.c = command;
    }

    int call() {
        List<String> problems = new ArrayList<>(Rebuild.problems(c.join != null, c.token != null, c.caHash != null,
                c.storeUrl != null));
        if (!problems.isEmpty()) {
            throw refused(String.join("\n  ", problems));
        }
        Path stateDir = c.stateDir.toAbsolutePath();
        InstallJournal journal = new InstallJournal(stateDir);
        boolean resuming = journal.done().contains(InstallStep.KEYS);
        Rebuild.Source source = Rebuild.source(c.fromBackup);
        byte[] artifact = read(source);
        char[] passphrase = RecoveryPassphrase.toOpen(c.recoveryPassphraseFile);
        StateBackups.Opened opened;
        RecoveryKey recovery;
        try {
            opened = StateBackups.open(artifact, passphrase, stateDir, resuming);
            recovery = RecoveryKey.derive(passphrase, opened.header().kdf());
        } catch (StateSeal.Refused e) {
            throw refused("the state backup " + source.words() + " is refused (" + e.reason().name() + "): " + e.getMessage());
        } catch (InstallFailure e) {
            throw new VerbFailure("install refused, " + e.getMessage().replaceFirst("^the state backup is not rebuilt here, ", ""));
        } finally {
            Arrays.fill(passphrase, ' ');
        }
        String seat = seat(opened);
        String addr = c.address != null ? c.address : MachineFacts.defaultAddress();
        List<mesh.plan.NetworkRange.HostNet> networks = c.moduleNetworks == null ? List.of() : mesh.host.HostNetworks.read();
        problems = new mesh.plan.InstallInputs(seat, addr, c.publicDomain, null, c.engine, null, null, null,
                c.moduleNetworks, networks, false).problems();
        if (!problems.isEmpty()) {
            throw refused(String.join("\n  ", problems));
        }
        String home = System.getenv().getOrDefault("HOME", System.getProperty("user.home"));
        InstallOptions o = new InstallOptions(seat, addr, c.publicDomain, null, stateDir, c.configDir.toAbsolutePath(),
                c.engine, c.storeImage, c.registryImage, null, null, Path.of(home), null, c.moduleNetworks);
        Consumer<String> say = c.format.json() ? line -> c.output.error(c.spec, line) : line -> c.output.line(c.spec, line);
        say.accept("rebuilding seat " + seat + " of mesh " + opened.header().mesh() + " on " + addr + " from the state backup"
                + " made " + opened.header().made() + " by mesh " + opened.header().build());
        List<InstallPlan.Action> plan = InstallPlan.inOrder(InstallPlan.rebuild(journal.done()));
        if (journal.done().contains(InstallStep.AGENT)) {
            new mesh.install.AgentSetup(o, say).revive();
        }
        List<InstallRunner.Outcome> outcomes = new InstallRunner(journal, say, System::nanoTime)
                .run(plan, new RebuildSteps(o, journal, say, opened, recovery));
        boolean ok = outcomes.size() == plan.size() && outcomes.stream().noneMatch(s -> s.result().equals("failed"));
        String controller = "https://" + addr + ":7700";
        if (c.format.json()) {
            c.output.json(c.spec, new InstallCommand.Summary(seat, addr, controller, stateDir.toString(), ok, outcomes));
        } else if (ok) {
            c.output.line(c.spec, "");
            c.output.line(c.spec, "the mesh is rebuilt: its controller answers at " + controller + "; what changed after "
                    + opened.header().made() + " is not in it (docs/rebuild.md, the data-loss window)");
            c.output.line(c.spec, "next: 'mesh status' (every node adopted), 'mesh restore MODULE --to NODE' for each module lost"
                    + " with the old seat, and a new state backup off this seat: mesh seat backup --to-node NODE");
        }
        return ok ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /** The artifact's bytes, from its file or its registry; refused, nothing written, when they cannot be read. */
    private static byte[] read(Rebuild.Source source) {
        try {
            return source.inRegistry()
                    ? StateBackupRegistry.fetch(new mesh.bundle.HttpRegistry(source.registry()), source.tag())
                    : Files.readAllBytes(Path.of(source.file()));
        } catch (IOException | RuntimeException e) {
            throw refused("cannot read the state backup " + source.words() + ": " + e.getMessage());
        }
    }

    /** The old seat's name, as the backup's CA names it; {@code --node} must agree. */
    private String seat(StateBackups.Opened opened) {
        byte[] ca = opened.seatFiles().get("keys/tls/ca.crt");
        try {
            String cn = mesh.trust.TlsContexts.commonName(mesh.trust.Pem.certificate(new String(ca, StandardCharsets.US_ASCII),
                    "the state backup's CA"));
            return Rebuild.seatName(cn, c.node);
        } catch (IllegalArgumentException e) {
            throw refused(e.getMessage());
        }
    }

    private static VerbFailure refused(String why) {
        return new VerbFailure("install refused, nothing was changed:\n  " + why);
    }
}
