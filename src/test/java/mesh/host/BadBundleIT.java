package mesh.host;

import static mesh.bundle.CraftedBundle.Raw.file;
import static mesh.bundle.CraftedBundle.Raw.symlink;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import mesh.bundle.CraftedBundle;
import mesh.bundle.LyingRegistry;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.model.DeclarationJson;
import mesh.testbed.PackagedMesh;
import org.junit.jupiter.api.Test;

/**
 * BadBundleIT gives the packaged agent declarations whose process names a bad bundle: a digest the store
 * does not have, a manifest altered on the way (a digest mismatch), a layer cut off mid-download, a tar with
 * {@code ../x}, an absolute path, a link out, a layer over the size limit, and a registry that is down. Each is
 * reported as the failure of exactly that component, with a message naming its bundle and the reason, and
 * changes nothing: the copy that ran before keeps running (same pid, same start time, same answer), and so
 * does the other process.
 */
class BadBundleIT {

    static final int PORT_VICTIM = PackagedMesh.freePort();
    static final int PORT_BYSTANDER = PackagedMesh.freePort();

    @Test
    void eachBadBundleFailsOnlyItsComponentNamingItAndWhatRanBeforeKeepsRunning() throws Exception {
        try (ProcessBed bed = new ProcessBed("bad-bundle")) {
            String good = bed.pushBundle("it/good:1", 0);
            String cut = bed.pushBundle("it/cut:1", 400_000);
            byte[] small = "#!/bin/sh\nexit 0\n".getBytes();
            Map<String, String> crafted = new LinkedHashMap<>();
            crafted.put("../x", ref(bed, "bad/dotdot", file("run", small), file("../x", small)));
            crafted.put("absolute", ref(bed, "bad/absolute", file("run", small), file("/tmp/mesh-bad-bundle-x", small)));
            crafted.put("link out", ref(bed, "bad/link", file("run", small), symlink("etc", "../../../../etc")));
            byte[] layer = CraftedBundle.layer(file("run", small));
            crafted.put("over the size limit", CraftedBundle.push(bed.registry.registry(), "bad/big", "run", layer,
                    (1L << 30) + 1).toString());
            String victim = bed.node + ".victim";
            String bystander = bed.node + ".bystander";
            bed.startAgent();
            assertEquals(201, bed.agent.put(declaration(bed, bed.registry.url, good, good)).status());
            bed.agent.awaitConverged(bed.generation, Duration.ofSeconds(60));
            Map<String, String> before = identities(bed, victim, bystander);

            List<String[]> cases = new ArrayList<>();   // what, registry, bundle, expected in the message
            String unknown = good.substring(0, good.indexOf('@')) + "@sha256:" + "0".repeat(64);
            cases.add(new String[] {"a digest the store lacks", bed.registry.url, unknown, "bundle " + unknown + ": not found"});
            crafted.forEach((what, ref) -> cases.add(new String[] {what, bed.registry.url, ref, "bundle " + ref + ": "}));
            int down = PackagedMesh.freePort();
            cases.add(new String[] {"a registry that is down", "http://127.0.0.1:" + down, cut,
                    "bundle " + cut + ": the artifact store at http://127.0.0.1:" + down + " does not answer"});
            try (LyingRegistry altering = new LyingRegistry(bed.registry.url, LyingRegistry.Lie.ALTER);
                 LyingRegistry cutting = new LyingRegistry(bed.registry.url, LyingRegistry.Lie.TRUNCATE)) {
                cases.add(new String[] {"a manifest altered on the way", altering.url(), cut,
                        "bundle " + cut + ": the artifact store sent a manifest whose digest is sha256:"});
                cases.add(new String[] {"a layer cut off mid-download", cutting.url(), cut,
                        "bundle " + cut + ": the download of its layer broke off after "});
                for (String[] c : cases) {
                    assertEquals(201, bed.agent.put(declaration(bed, c[1], c[2], good)).status(), c[0]);
                    String error = awaitError(bed, victim, c[0], c[3]);
                    assertFalse(error.contains("Exception"), c[0] + ": " + error);
                    JsonNode status = bed.agent.get("/v1/status").json();
                    assertEquals("", ProcessComponentIT.component(status, bystander).path("error").asText(""),
                            c[0] + ": only the bad component fails");
                    assertEquals(before, identities(bed, victim, bystander), c[0] + ": what ran before keeps running");
                    assertEquals("one\n", bed.get(PORT_VICTIM, "/version.txt"), c[0]);
                }
            }
            assertFalse(Files.exists(Path.of("/tmp/mesh-bad-bundle-x")));
        }
    }

    static String ref(ProcessBed bed, String name, CraftedBundle.Raw... entries) throws Exception {
        return CraftedBundle.push(bed.registry.registry(), name, "run", entries).toString();
    }

    static String declaration(ProcessBed bed, String registry, String victimBundle, String bystanderBundle) {
        List<ComponentSpec> components = List.of(
                bed.process(bed.node + ".victim", victimBundle, PORT_VICTIM, Map.of(), "one"),
                bed.process(bed.node + ".bystander", bystanderBundle, PORT_BYSTANDER, Map.of(), "one"));
        return DeclarationJson.write(new Declaration(bed.node, ProcessBed.ADDRESS, ++bed.generation, components, registry));
    }

    /** Component → pid and start time of its shim, as /proc shows them. */
    static Map<String, String> identities(ProcessBed bed, String... components) throws Exception {
        Map<String, String> all = new LinkedHashMap<>();
        for (String c : components) {
            List<Long> shims = ProcessBed.shims(c);
            assertEquals(1, shims.size(), c + ": " + shims);
            all.put(c, shims.get(0) + " " + ProcessBed.startTime(shims.get(0)));
        }
        return all;
    }

    /** Waits until the agent reports the component failing with a message containing {@code expected}. */
    static String awaitError(ProcessBed bed, String component, String what, String expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = null;
        while (System.nanoTime() < deadline) {
            JsonNode status = bed.agent.get("/v1/status").json();
            last = ProcessComponentIT.component(status, component).path("error").asText(null);
            if (status.path("generation").asLong() == bed.generation && last != null && last.contains(expected)) {
                return last;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(what + ": " + component + " was not reported failing with '" + expected + "'; last error: "
                + last + "; status: " + bed.agent.get("/v1/status").body());
    }
}
