package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ScrapeConfigTest {

    static final ScrapeConfig.Files FILES = new ScrapeConfig.Files(Path.of("/etc/prom/mesh/ca.crt"),
            Path.of("/etc/prom/mesh/scraper.crt"), Path.of("/etc/prom/mesh/scraper.key"));

    @Test
    void theControllerAndTheAgentsAreTwoJobsOverHttpsNamingTheScrapersFiles() {
        assertEquals("""
                scrape_configs:
                  - job_name: mesh-controller
                    scheme: https
                    metrics_path: /metrics
                    scrape_interval: 15s
                    scrape_timeout: 10s
                    tls_config:
                      ca_file: "/etc/prom/mesh/ca.crt"
                      cert_file: "/etc/prom/mesh/scraper.crt"
                      key_file: "/etc/prom/mesh/scraper.key"
                    static_configs:
                      - targets:
                          - "10.0.0.11:7700"
                  - job_name: mesh-agents
                    scheme: https
                    metrics_path: /metrics
                    scrape_interval: 15s
                    scrape_timeout: 10s
                    tls_config:
                      ca_file: "/etc/prom/mesh/ca.crt"
                      cert_file: "/etc/prom/mesh/scraper.crt"
                      key_file: "/etc/prom/mesh/scraper.key"
                    static_configs:
                      - targets:
                          - "10.0.0.11:7701"
                          - "10.0.0.12:7701"
                """, ScrapeConfig.yaml("10.0.0.11:7700", true, List.of("10.0.0.11:7701", "10.0.0.12:7701"), true, FILES, "15s"));
    }

    @Test
    void aPlainHttpMeshWithoutNodesIsTheControllersJobAloneWithoutTls() {
        assertEquals("""
                scrape_configs:
                  - job_name: mesh-controller
                    scheme: http
                    metrics_path: /metrics
                    scrape_interval: 2s
                    scrape_timeout: 2s
                    static_configs:
                      - targets:
                          - "127.0.0.1:7700"
                """, ScrapeConfig.yaml("127.0.0.1:7700", false, List.of(), false, FILES, "2s"));
    }

    @ParameterizedTest
    @CsvSource({"https://10.0.0.11:7700, 10.0.0.11:7700", "http://ace:7701, ace:7701", "https://ace, ace:443",
        "https://[fd00::1]:7701, [fd00::1]:7701"})
    void aTargetIsTheUrlsHostAndPort(String url, String target) {
        assertEquals(target, ScrapeConfig.target(url));
    }

    @ParameterizedTest
    @CsvSource({"2s, 2s", "500ms, 500ms", "9s, 9s", "10s, 10s", "15s, 10s", "1m, 10s", "1h, 10s"})
    void theTimeoutNeverExceedsTheInterval(String interval, String timeout) {
        assertEquals(timeout, ScrapeConfig.timeout(interval));
    }
}
