package mesh.cli;

import io.quarkus.runtime.Quarkus;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import mesh.host.HostAgent;
import mesh.host.HostSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "serve",
        mixinStandardHelpOptions = true,
        description = {"Run the host agent: take declarations over HTTP and keep the local engine at them.",
            "",
            "Configured by environment (over the --config file):",
            "  MESH_HOST_NODE       this node's name (required)",
            "  MESH_HOST_TOKEN      over plain HTTP only (tests): the bearer callers must send (optional)",
            "  MESH_HOST_LISTEN     address to listen on (default 0.0.0.0:7701)",
            "  MESH_HOST_ENGINE     Docker host (default unix:///var/run/docker.sock)",
            "  MESH_HOST_STATE_DIR  where accepted declarations are kept (default /var/lib/mesh)",
            "  MESH_HOST_INTERVAL   how often to check the engine (default 15s)",
            "  MESH_HOST_PARALLELISM  containers changed at once (default 8, 1 to 64)",
            "  MESH_HOST_NETWORKS   the range of module networks' /26 subnets (default 10.213.0.0/16)",
            "  MESH_TLS_CERT, MESH_TLS_KEY, MESH_TLS_CA  this agent's certificate, key and the mesh CA (PEM;",
            "                       required: HTTPS only, calls only from the mesh's controller; docs/trust.md)",
            "  MESH_PLAIN_HTTP      yes: plain HTTP without TLS files (tests only: no certificate to check)"},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh host serve --config /etc/mesh/host.env",
            "      what the unit 'mesh install' writes runs"})
public class HostServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", description = "a file of KEY=VALUE lines (the variables below); the environment wins over it")
    Path config;

    @Inject
    HostAgent agent;

    final Output output = new Output();

    @Override
    public Integer call() {
        // a bad setting is an InvalidInput, which FailureExits prints problem by problem (exit 1)
        HostSettings settings = HostSettings.forServe(ConfigFile.withEnvironment(config, System.getenv()));
        if (settings.token() != null && mesh.trust.ServerTrust.enabled()) {
            output.error(spec, "mesh: note: MESH_HOST_TOKEN is set but not read over HTTPS: this agent takes calls on its"
                    + " mesh's controller's client certificate alone; remove it from its settings (docs/trust.md)");
        }
        if (mesh.trust.ServerTrust.enabled()) {
            // a take's copy from another agent is HTTPS to a certificate of the mesh CA
            javax.net.ssl.SSLContext.setDefault(mesh.trust.ServerTrust.meshAndPublicRoots());
        }
        agent.start(settings);
        output.line(spec, "mesh host agent for node " + settings.node() + ": engine " + settings.engine()
                + ", records in " + settings.stateDir() + ", listening on "
                + System.getProperty("quarkus.http.host", "?") + ":" + System.getProperty("quarkus.http.port", "?"));
        Quarkus.waitForExit();
        return ExitCodes.OK;
    }
}
