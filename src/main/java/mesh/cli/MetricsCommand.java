package mesh.cli;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import mesh.trust.Pem;
import mesh.wire.NodeView;
import mesh.wire.ScraperCertificate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "metrics",
        mixinStandardHelpOptions = true,
        description = {"Prometheus metrics: how Prometheus scrapes the controller and every node's agent.",
            "The controller and each agent serve /metrics on their HTTPS ports, to the mesh's scraper certificate only (docs/metrics.md).",
            "Uses MESH_CONTROLLER, MESH_TOKEN and MESH_CA."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh metrics scrape-config > /etc/prometheus/mesh.yml",
            "      the jobs for the controller and every agent; key and certificate in ~/.config/mesh/metrics",
            "  mesh metrics scrape-config --dir /etc/prometheus/mesh --interval 30s"})
public class MetricsCommand {

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Command(name = "scrape-config", mixinStandardHelpOptions = true,
            description = {"Print a Prometheus scrape_configs block that scrapes the controller and every node's agent in the store over HTTPS.",
                "The scrape presents the mesh's scraper certificate (CN=mesh metrics), which opens /metrics and nothing else: its key is made here and kept in DIR (0600, never sent), the seat's controller certifies it, and the block names the key, the certificate and the mesh CA in DIR. A certificate in DIR valid for 30 more days is kept; otherwise a new one is issued (recorded in 'mesh audit'). Run it again after 'mesh node add' to scrape the new node. DIR is ~/.config/mesh/metrics unless --dir names another."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh metrics scrape-config > /etc/prometheus/mesh.yml",
                "  mesh metrics scrape-config --dir /etc/prometheus/mesh --interval 30s",
                "      files in /etc/prometheus/mesh (readable by the prometheus user), a scrape every 30 s"})
    int scrapeConfig(@Option(names = "--dir", paramLabel = "DIR",
                             description = "the folder of the scraper's key, certificate and CA") Path dir,
                     @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "15s",
                             description = "how often Prometheus scrapes, in its own words (default ${DEFAULT-VALUE})") String interval,
                     @Option(names = "--renew", description = "issue a new certificate even when the one in DIR is current") boolean renew) {
        if (!ScrapeConfig.DURATION.matcher(interval).matches()) {
            throw new VerbFailure("--interval: a number and ms, s, m or h (15s, 1m), got '" + interval + "'");
        }
        ControllerClient client = ControllerClient.fromEnvironment();
        ScraperFiles files = new ScraperFiles(dir != null ? dir
                : Path.of(System.getProperty("user.home"), ".config", "mesh", "metrics"));
        List<NodeView> nodes = client.api().nodes();
        boolean tls = client.base().startsWith("https://");
        if (tls) {
            if (client.caFile() == null) {
                throw new VerbFailure("MESH_CA is not set: the scrape trusts the mesh CA alone, and this verb needs its file");
            }
            if (renew || !files.current(Pem.certificate(Path.of(client.caFile())), Instant.now())) {
                ScraperCertificate issued = files.renew(r -> client.api().scraperCertificate(r));
                output.error(spec, "the scraper's certificate (serial " + issued.serial() + ", valid until " + issued.notAfter()
                        + ") and key are in " + files.files().key().getParent());
            }
        }
        List<String> agents = nodes.stream().map(NodeView::agent).map(ScrapeConfig::target).toList();
        boolean agentsTls = nodes.stream().allMatch(n -> n.agent().startsWith("https://"));
        output.line(spec, ScrapeConfig.yaml(ScrapeConfig.target(client.base()), tls, agents, agentsTls, files.files(), interval)
                .stripTrailing());
        return ExitCodes.OK;
    }
}
