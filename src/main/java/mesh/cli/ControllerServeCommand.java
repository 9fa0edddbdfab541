package mesh.cli;

import io.quarkus.runtime.Quarkus;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import mesh.controller.ControllerSettings;
import mesh.controller.MeshController;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "serve",
        mixinStandardHelpOptions = true,
        description = {"Run the controller: the operator's API over its PostgreSQL store.",
            "",
            "Configured by environment (over the --config file):",
            "  MESH_STORE_URL           the store, a JDBC URL jdbc:postgresql://HOST:PORT/DB (required)",
            "  MESH_STORE_USER, MESH_STORE_PASSWORD",
            "  MESH_STORE_PASSWORD_FILE  or a file holding that password (mesh install writes one, 0600)",
            "  MESH_SECRETS_KEY_FILE    the secrets key file ('mesh secret'; mesh install makes it, 0600,",
            "                           on the seat)",
            "  MESH_CONTROLLER_TOKEN    the bootstrap operator token, named 'admin' (required);",
            "                           'mesh token create' makes more, each named and revocable (docs/trust.md)",
            "  MESH_CONTROLLER_TOKEN_FILE  or a file holding that token (mesh install writes one, 0600)",
            "  MESH_CONTROLLER_LISTEN   address to listen on (default 0.0.0.0:7700)",
            "  MESH_PUSH_BUDGET         a push replacing more containers stops unless --yes (default 10)",
            "  MESH_CONTROLLER_EPOCH    this controller's epoch (default 0); one older than the store's",
            "                           refuses writes; every agent that saw a newer one refuses its changes",
            "  MESH_SEAT_NODE           the node this controller runs on, named to the agents beside its epoch",
            "  MESH_TLS_CERT, MESH_TLS_KEY, MESH_TLS_CA  its certificate, key and the mesh CA (PEM; required:",
            "                           HTTPS only, and its certificate is its client certificate to the agents)",
            "  MESH_CA_KEY              the mesh CA's key, to issue a joining node's certificate (the seat's)",
            "  MESH_PLAIN_HTTP          yes: plain HTTP without TLS files (tests, a trusted loopback only)"},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh controller serve --config /etc/mesh/controller.env",
            "      what the agent on the seat runs as a process"})
public class ControllerServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "a file of KEY=VALUE lines (the variables below); the environment wins over it")
    Path config;

    @Inject
    MeshController controller;

    final Output output = new Output();

    @Inject
    mesh.controller.MeshTake takes;

    @Inject
    mesh.controller.MeshBackup backups;

    @Inject
    mesh.controller.MeshRestore restores;

    @Inject
    mesh.controller.MeshDrain drains;

    @Inject
    mesh.controller.BackupWatch backupWatch;

    @Inject
    mesh.controller.AlertWatch alertWatch;

    @Inject
    mesh.controller.StateBackupWatch stateBackupWatch;

    @Inject
    mesh.controller.StandbyWatch standbyWatch;

    @Inject
    mesh.controller.AgentClient agents;

    /** This controller's URL as an operator gives it, when its listen address names a host (not 0.0.0.0), else "". */
    static String ownUrl(java.util.Map<String, String> vars) {
        String listen = vars.getOrDefault("MESH_CONTROLLER_LISTEN", "").strip();
        boolean plain = "yes".equalsIgnoreCase(vars.getOrDefault("MESH_PLAIN_HTTP", ""));
        return listen.isEmpty() || listen.startsWith("0.0.0.0") || listen.startsWith("[::]") ? ""
                : (plain ? "http://" : "https://") + listen;
    }

    @Override
    public Integer call() {
        // a bad setting is an InvalidInput, which FailureExits prints problem by problem (exit 1)
        java.util.Map<String, String> vars = ConfigFile.withEnvironment(config, System.getenv());
        ControllerSettings settings = ControllerSettings.read(vars);
        try {
            // every agent call names this epoch and seat; an agent that saw a newer seat refuses changes (docs/seat.md)
            agents.speakAs(new mesh.plan.SeatEpoch(settings.epoch(), vars.getOrDefault("MESH_SEAT_NODE", ""), ownUrl(vars)));
            // before the start's first write: a synchronous standby that is away holds every commit of the store, this
            // start's own included, until the watch lets it go after 10 s (a seat rebooted while its standby is down,
            // a deposed seat whose standby was promoted: docs/seat.md)
            standbyWatch.start();
            controller.start(settings);
            takes.resumeAll();  // a take a killed controller left is carried on (docs/take.md)
            backups.resumeAll();  // so are backups and restores (docs/backup.md)
            restores.resumeAll();
            drains.resumeAll();   // a drain a killed controller left is carried on (docs/drain.md)
            backupWatch.start();
            alertWatch.start();  // the alerts the store kept are carried on (docs/metrics.md)
            stateBackupWatch.start();  // the seat's state backup, daily and after key changes (docs/rebuild.md)
        } catch (RuntimeException e) {
            throw new VerbFailure("cannot open the store at " + settings.storeUrl() + ": " + rootMessage(e));
        }
        output.line(spec, "mesh controller: store " + settings.storeUrl() + ", listening on "
                + System.getProperty("quarkus.http.host", "?") + ":" + System.getProperty("quarkus.http.port", "?"));
        Quarkus.waitForExit();
        return ExitCodes.OK;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage();
    }
}
