package mesh.cli;

import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * ScrapeConfig is the Prometheus {@code scrape_configs} block {@code mesh metrics scrape-config} prints: one job for
 * the controller, one for the agents (every node in the store), both over HTTPS with the mesh CA as the only trust
 * and the scraper's certificate and key as client certificate (docs/metrics.md). Pure: the targets and files come in.
 */
final class ScrapeConfig {

    /** A Prometheus duration as this verb takes it: a number and ms, s, m or h. */
    static final Pattern DURATION = Pattern.compile("([1-9][0-9]*)(ms|s|m|h)");

    /** The files a scrape uses: the mesh CA, the scraper's certificate and its key. */
    record Files(Path ca, Path certificate, Path key) {
    }

    private ScrapeConfig() {
    }

    /** The {@code host:port} of an http(s) URL, as a Prometheus target ({@code [v6]:port} for an IPv6 address). */
    static String target(String url) {
        URI uri = URI.create(url);
        int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
        return uri.getHost() + ":" + port;
    }

    /** Prometheus's scrape timeout may not exceed the interval: the interval below 10 s, else Prometheus's own 10 s. */
    static String timeout(String interval) {
        var m = DURATION.matcher(interval);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration: " + interval);
        }
        long n = Long.parseLong(m.group(1));
        long millis = switch (m.group(2)) {
            case "ms" -> n;
            case "s" -> n * 1000;
            case "m" -> n * 60_000;
            default -> n * 3_600_000;
        };
        return millis < 10_000 ? interval : "10s";
    }

    /** The block: {@code controller} and {@code agents} are {@code host:port} targets, agents sorted as given. */
    static String yaml(String controller, boolean controllerTls, List<String> agents, boolean agentsTls, Files files,
                       String interval) {
        List<String> out = new ArrayList<>();
        out.add("scrape_configs:");
        job(out, "mesh-controller", List.of(controller), controllerTls, files, interval);
        if (!agents.isEmpty()) {
            job(out, "mesh-agents", agents, agentsTls, files, interval);
        }
        return String.join("\n", out) + "\n";
    }

    private static void job(List<String> out, String name, List<String> targets, boolean tls, Files files, String interval) {
        out.add("  - job_name: " + name);
        out.add("    scheme: " + (tls ? "https" : "http"));
        out.add("    metrics_path: /metrics");
        out.add("    scrape_interval: " + interval);
        out.add("    scrape_timeout: " + timeout(interval));
        if (tls) {
            out.add("    tls_config:");
            out.add("      ca_file: " + quoted(files.ca()));
            out.add("      cert_file: " + quoted(files.certificate()));
            out.add("      key_file: " + quoted(files.key()));
        }
        out.add("    static_configs:");
        out.add("      - targets:");
        targets.forEach(t -> out.add("          - " + quoted(t)));
    }

    /** A YAML double-quoted scalar (a path may hold a space or a colon). */
    static String quoted(Object value) {
        return "\"" + value.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
