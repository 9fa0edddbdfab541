package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import mesh.bundle.BundleLimits;
import mesh.host.process.Backoff;
import mesh.host.process.LinuxProcessHost;
import mesh.host.process.LogFiles;
import mesh.host.process.ProcessRecord;
import mesh.host.process.ProcessSpec;
import mesh.host.process.ProcessSupervisor;
import mesh.model.ComponentSpec;
import mesh.model.Declaration;
import mesh.plan.BundleRetention;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ProcessComponentsCleanTest: on a real state directory, the agent's bundle cleaning deletes the unpacked
 * folder and the cached download of every bundle no declared component or supervised process uses, beyond
 * the few recently used ones; it keeps the declared one however old (and renews its last use), the one a
 * record still runs from, and a half-made hidden folder it does not own.
 */
class ProcessComponentsCleanTest {

    @TempDir
    Path state;

    static String hex(char c) {
        return String.valueOf(c).repeat(64);
    }

    private Path bundle(char c, Instant lastUse) throws Exception {
        Path unpacked = Files.createDirectories(state.resolve("bundles/unpacked").resolve(hex(c)));
        Files.writeString(unpacked.resolve("run"), "#!/bin/sh\n");
        Path cached = Files.createDirectories(state.resolve("bundles/sha256").resolve(hex(c)));
        Files.writeString(cached.resolve("layer.tar.gz"), "x");
        Files.setLastModifiedTime(unpacked, FileTime.from(lastUse));
        Files.setLastModifiedTime(cached, FileTime.from(lastUse));
        return unpacked;
    }

    @Test
    void unusedBundlesBeyondTheRecentFewAreDeletedAndUsedOnesKept() throws Exception {
        Instant now = Instant.now();
        bundle('a', now.minus(Duration.ofDays(30)));   // declared
        Path b = bundle('b', now.minus(Duration.ofDays(30)));   // a record runs from it
        bundle('c', now.minus(Duration.ofHours(1)));
        bundle('d', now.minus(Duration.ofHours(2)));
        bundle('e', now.minus(Duration.ofHours(3)));   // beyond the two kept
        bundle('f', now.minus(Duration.ofDays(2)));   // too old
        Path halfMade = Files.createDirectories(state.resolve("bundles/unpacked/." + hex('g') + "-1"));

        ProcessSupervisor supervisor = new ProcessSupervisor(state, new LinuxProcessHost(), Backoff.DEFAULT, LogFiles.Limits.DEFAULT);
        ProcessSpec spec = new ProcessSpec("m.old", "m", b.toString(), "run", List.of(), Map.of(), state.resolve("data/m.old").toString(),
                Map.of(), 1000, "v3:x");
        supervisor.records().write(new ProcessRecord(spec, 0, 0, null, List.of(), null, null, 0, 0, null, null, true, null));
        ComponentSpec declared = new ComponentSpec("m", "m.web", null, "it/web@sha256:" + hex('a'), List.of(), Map.of(), Map.of(),
                List.of(), Map.of(), null, List.of(), 5, null);
        ProcessComponents components = new ProcessComponents(state, supervisor, BundleLimits.DEFAULT);

        List<String> deleted = components.clean(new Declaration("n1", "10.77.0.11", 3, List.of(declared), (String) null), now,
                new BundleRetention.Policy(2, Duration.ofHours(24)));

        assertEquals(List.of(hex('f'), hex('e')), deleted);
        for (char c : List.of('a', 'b', 'c', 'd')) {
            assertTrue(Files.isRegularFile(state.resolve("bundles/unpacked").resolve(hex(c)).resolve("run")), c + " unpacked");
            assertTrue(Files.isDirectory(state.resolve("bundles/sha256").resolve(hex(c))), c + " cached");
        }
        for (char c : List.of('e', 'f')) {
            assertTrue(!Files.exists(state.resolve("bundles/unpacked").resolve(hex(c))), c + " unpacked is still there");
            assertTrue(!Files.exists(state.resolve("bundles/sha256").resolve(hex(c))), c + " cached is still there");
        }
        assertTrue(Files.isDirectory(halfMade), "a hidden folder being made is not the cleaner's");
        assertTrue(Files.getLastModifiedTime(state.resolve("bundles/unpacked").resolve(hex('a'))).toInstant()
                .isAfter(now.minusSeconds(5)), "the declared bundle's last use is renewed");

        // once nothing declares or runs a and b, they are merely the two most recently used: kept, c and d go
        supervisor.records().delete("m.old");
        List<String> later = components.clean(new Declaration("n1", "10.77.0.11", 4, List.of(), (String) null), now,
                new BundleRetention.Policy(2, Duration.ofHours(24)));
        assertEquals(List.of(hex('d'), hex('c')), later, "a and b were used until now: the two newest, kept");
    }
}
