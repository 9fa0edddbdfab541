package mesh.install;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import mesh.docker.DockerEngine;
import mesh.model.DeclarationJson;
import mesh.model.ObservedContainer;
import mesh.plan.AgentUnit;

/**
 * Uninstall takes mesh off this machine: the host agent (its unit, or the detached process), the
 * processes it supervises, the temporary controller, the mesh's containers on this node and its
 * state. Volumes and the processes' data are kept unless {@code deleteData}; what is kept is said.
 */
public final class Uninstall {

    /** Report is what was removed and what was kept. */
    public record Report(List<String> removed, List<String> kept) {
    }

    private final Path stateDir;
    private final Path configDir;
    private final Path home;
    private final Consumer<String> say;
    private final Map<String, String> settings;

    /**
     * {@code settings}: the agent's host.env as read, or else what an earlier uninstall kept in
     * {@link #keptNodeFile} (empty if neither exists), for the node and its engine.
     */
    public Uninstall(Path stateDir, Path configDir, Path home, Map<String, String> settings, Consumer<String> say) {
        this.settings = settings;
        this.stateDir = stateDir;
        this.configDir = configDir;
        this.home = home;
        this.say = say;
    }

    public Report run(boolean deleteData) {
        List<String> removed = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        stopAgent(removed);
        new TempController(stateDir).stop();
        stopProcesses(removed);
        String node = settings.get("MESH_HOST_NODE");
        String engineUrl = settings.getOrDefault("MESH_HOST_ENGINE", mesh.host.HostSettings.DEFAULT_ENGINE);
        if (node != null) {
            try (DockerEngine engine = new DockerEngine(engineUrl)) {
                for (ObservedContainer c : engine.list(node)) {
                    engine.stop(c.id(), Duration.ofSeconds(60));
                    engine.remove(c.id());
                    removed.add("container " + c.name());
                }
                for (String v : engine.volumes(node)) {
                    if (deleteData) {
                        engine.removeVolume(v);
                        removed.add("volume " + v);
                    } else {
                        kept.add("volume " + v);
                    }
                }
            }
        }
        removeState(deleteData, removed, kept);
        if (!deleteData && node != null && kept.stream().anyMatch(k -> k.startsWith("volume "))) {
            rememberNode(node, engineUrl);
        }
        for (Path f : List.of(configDir.resolve("host.env"), configDir.resolve(AgentUnit.UNIT_NAME),
                home.resolve(".config/mesh/config"))) {
            try {
                if (Files.deleteIfExists(f)) {
                    removed.add(f.toString());
                }
            } catch (IOException e) {
                throw new InstallFailure("cannot remove " + f + ": " + e.getMessage(), e);
            }
        }
        return new Report(removed, kept);
    }

    private void rememberNode(String node, String engineUrl) {
        Path f = keptNodeFile();
        try {
            Files.createDirectories(f.getParent());
            Files.writeString(f, "# the node and engine of the volumes 'mesh uninstall' kept; 'mesh uninstall --delete-data' reads it\n"
                    + "MESH_HOST_NODE=" + node + "\nMESH_HOST_ENGINE=" + engineUrl + "\n");
        } catch (IOException e) {
            throw new InstallFailure("cannot write " + f + ": " + e.getMessage(), e);
        }
    }

    private Path keptNodeFile() {
        return keptNodeFile(stateDir);
    }

    /**
     * Where a plain uninstall records the node and engine of the volumes it kept (KEY=VALUE lines, as
     * host.env): it removes host.env, so a later {@code --delete-data} reads this file instead to find
     * the volumes it was told it would delete.
     */
    public static Path keptNodeFile(Path stateDir) {
        return stateDir.resolve("install/kept-node.env");
    }

    private void stopAgent(List<String> removed) {
        if (AgentSetup.systemdRuns() && Files.exists(configDir.resolve(AgentUnit.UNIT_NAME))) {
            AgentSetup.run(List.of("systemctl", "disable", "--now", AgentUnit.UNIT_NAME));
            removed.add("unit " + AgentUnit.UNIT_NAME);
            return;
        }
        Path pidFile = stateDir.resolve("agent.pid");
        try {
            if (Files.isRegularFile(pidFile)) {
                long pid = Long.parseLong(Files.readString(pidFile).strip());
                ProcessHandle.of(pid).filter(h -> h.info().arguments().map(a -> String.join(" ", a).contains("host serve")).orElse(false))
                        .ifPresent(h -> {
                            AgentSetup.end(h, java.time.Duration.ofSeconds(30));
                            removed.add("host agent (pid " + pid + ")");
                        });
            }
        } catch (IOException | NumberFormatException e) {
            say.accept("mesh: cannot read " + pidFile + "; the agent may still run");
        }
    }

    /** Ends every supervised process's group (TERM, then KILL after 30 s): each leads its own session. */
    private void stopProcesses(List<String> removed) {
        Path dir = stateDir.resolve("host/processes");
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).toList()) {
                JsonNode r = DeclarationJson.MAPPER.readTree(f.toFile());
                long pid = r.path("pid").asLong();
                if (pid > 0 && ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                    signalGroup("TERM", pid);
                    ProcessHandle h = ProcessHandle.of(pid).orElse(null);
                    if (h != null) {
                        h.onExit().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).exceptionally(x -> {
                            signalGroup("KILL", pid);
                            return h;
                        }).join();
                    }
                    removed.add("process " + f.getFileName().toString().replaceAll("\\.json$", "") + " (pid " + pid + ")");
                }
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot read the supervised processes in " + dir + ": " + e.getMessage(), e);
        }
    }

    private static void signalGroup(String signal, long pid) {
        try {
            new ProcessBuilder("kill", "-" + signal, "--", "-" + pid).redirectErrorStream(true).start().waitFor();
        } catch (IOException e) {
            // the group is gone already
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Deletes the state dir; without --delete-data, the processes' data ({@code host/data}: their
     * working folders, {@code host/volumes}: their module volumes) is kept in it, and so are the
     * install's secrets ({@code install/secrets.env}, 0600): the kept store volume only opens with the
     * password generated at the first install, and the store's operator token is the one the config
     * file held, so a later {@code mesh install} over the kept data must use the same ones. The TLS files
     * ({@code tls/}: the mesh CA with its key, 0600) are kept too: the nodes that joined trust that CA
     * alone and hold its certificates, so a reinstall must be the same mesh to them (docs/trust.md).
     */
    private void removeState(boolean deleteData, List<String> removed, List<String> kept) {
        if (!Files.isDirectory(stateDir)) {
            return;
        }
        Path secrets = new InstallJournal(stateDir).secretsFile();
        Path tls = stateDir.resolve("tls");
        Path secretsKey = stateDir.resolve("install/secrets.key");
        List<Path> data = List.of(stateDir.resolve("host/data"), stateDir.resolve("host/volumes"), secrets, secretsKey, tls,
                keptNodeFile());
        try (Stream<Path> top = Files.walk(stateDir)) {
            for (Path p : top.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!deleteData && data.stream().anyMatch(d -> p.startsWith(d) || d.startsWith(p))) {
                    continue;
                }
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new InstallFailure("cannot remove the state dir " + stateDir + ": " + e.getMessage(), e);
        }
        removed.add("state " + stateDir);
        if (!deleteData) {
            data.stream().filter(d -> !d.equals(tls)).filter(Files::isDirectory).forEach(d -> kept.add("process data " + d));
            if (Files.isDirectory(tls)) {
                kept.add("the mesh CA and certificates " + tls + " (the joined nodes trust this CA alone)");
            }
            if (Files.isRegularFile(secretsKey)) {
                kept.add("the secrets key " + secretsKey + " (the store's secrets open with it alone)");
            }
            if (Files.isRegularFile(secrets)) {
                kept.add("install secrets " + secrets + " (the store password and tokens a reinstall over the kept data needs)");
            }
        }
    }
}
