package mesh.controller;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Consumer;
import mesh.client.AgentApi;
import mesh.model.DeclarationJson;
import mesh.model.Node;
import mesh.wire.BackupProgress;
import mesh.wire.BackupPushRequest;
import mesh.wire.BackupRestoreRequest;
import mesh.wire.BackupVerifyRequest;
import mesh.wire.JsonHttp;

/**
 * BackupAgents is the backups' part of the controller's edge to the agents (docs/backup.md, "On the nodes"): a
 * backup, a restore and a verify, each answered with NDJSON progress lines. The data goes between the agent and the
 * registry; the controller reads only the lines. No whole deadline (a volume may take long), but one per line: the
 * agent sends one a second, so {@link #NO_LINE} without one means it is stopped or cut off, and the step fails naming
 * the node.
 */
class BackupAgents {

    static final Duration NO_LINE = Duration.ofSeconds(30);
    /** The agent's head: it checks the fence and finds the volumes first. */
    static final Duration HEAD = Duration.ofMinutes(2);

    private final AgentClient agents;

    BackupAgents(AgentClient agents) {
        this.agents = agents;
    }

    BackupProgress backup(Node node, String module, BackupPushRequest body, Consumer<BackupProgress> progress) {
        return lines(node, AgentApi.backup(module), body, "the backup of module " + module + " on node " + node.name(), progress);
    }

    BackupProgress restore(Node node, String module, BackupRestoreRequest body, Consumer<BackupProgress> progress) {
        return lines(node, AgentApi.restore(module), body, "the restore of module " + module + " on node "
                + node.name(), progress);
    }

    BackupProgress verify(Node node, BackupVerifyRequest body, Consumer<BackupProgress> progress) {
        return lines(node, AgentApi.verifyBackup(), body, "the verify on node " + node.name(), progress);
    }

    private BackupProgress lines(Node node, String path, Object body, String what, Consumer<BackupProgress> progress) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(node.agent().replaceAll("/+$", "") + path))
                .timeout(HEAD)
                .header("Content-Type", "application/json")
                .header("Accept", "application/x-ndjson")
                .POST(HttpRequest.BodyPublishers.ofString(DeclarationJson.write(body))).build();
        JsonHttp.Failures failures = AgentClient.failures(node);
        HttpResponse<InputStream> response;
        try {
            response = agents.http().send(request, HttpResponse.BodyHandlers.ofInputStream());
        } catch (IOException e) {
            throw failures.unreachable(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failures.unreachable(e);
        }
        try (InputStream in = response.body(); var reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            if (response.statusCode() / 100 != 2) {
                String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                String said = DeclarationJson.MAPPER.readTree(text.isBlank() ? "{}" : text).path("error").asText(text);
                throw new AgentClient.Unreachable("node " + node.name() + "'s agent refused (" + response.statusCode() + "): "
                        + said, response.statusCode());
            }
            Watch watch = new Watch(in);
            try {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    watch.heard();
                    if (line.isBlank()) {
                        continue;
                    }
                    BackupProgress l = DeclarationJson.MAPPER.readerFor(BackupProgress.class)
                            .without(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                            .readValue(line);
                    if (l.done() != null) {
                        return l;
                    }
                    progress.accept(l);
                }
            } catch (IOException e) {
                if (watch.silent) {
                    throw new AgentClient.Unreachable(what + ": node " + node.name() + "'s agent sent no progress for "
                            + NO_LINE.toSeconds() + " s (stopped, or the link to it is down)", 0);
                }
                throw e;
            } finally {
                watch.stop();
            }
            throw new AgentClient.Unreachable(what + ": node " + node.name() + "'s agent ended without saying it was done", 0);
        } catch (IOException e) {
            throw new AgentClient.Unreachable(what + " broke off (" + JsonHttp.why(e) + ")", 0);
        }
    }

    /** Watch closes a stream that sent no line for {@link #NO_LINE}, so a blocked read ends (as the take's copy does). */
    private static final class Watch {
        private final InputStream stream;
        private final Thread dog;
        private volatile long last = System.nanoTime();
        private volatile boolean stopped;
        volatile boolean silent;

        Watch(InputStream stream) {
            this.stream = stream;
            this.dog = Thread.ofVirtual().name("backup-line-watch").start(this::watch);
        }

        void heard() {
            last = System.nanoTime();
        }

        void stop() {
            stopped = true;
            dog.interrupt();
        }

        private void watch() {
            while (!stopped) {
                long left = NO_LINE.toNanos() - (System.nanoTime() - last);
                if (left <= 0) {
                    silent = true;
                    try {
                        stream.close();
                    } catch (IOException e) {
                        // closing is how a silent agent is given up on
                    }
                    return;
                }
                try {
                    Thread.sleep(Duration.ofNanos(Math.min(left, Duration.ofSeconds(1).toNanos())));
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }
}
