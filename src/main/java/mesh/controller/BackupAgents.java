package mesh.controller;

import mesh.wire.CallFailure;
import java.time.Duration;
import java.util.function.Consumer;
import mesh.client.AgentApi;
import mesh.model.Node;
import mesh.wire.BackupProgress;
import mesh.wire.BackupPushRequest;
import mesh.wire.BackupRestoreRequest;
import mesh.wire.BackupVerifyRequest;

/**
 * BackupAgents is the backups' part of the controller's edge to the agents (docs/backup.md, "On the nodes"): a
 * backup, a restore and a verify, each answered with NDJSON progress lines. The data goes between the agent and the
 * registry; the controller reads only the lines. No whole deadline (a volume may take long), but one per line: the
 * agent sends one a second, so {@link #NO_LINE} without one means it is stopped or cut off, and the step fails naming
 * the node ({@link AgentLines}, as a take's copy).
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
        try (AgentLines lines = AgentLines.post(agents, node, path, body, HEAD, NO_LINE, what)) {
            for (String line = lines.next(); line != null; line = lines.next()) {
                BackupProgress l = lines.parse(line, BackupProgress.class);
                if (l.done() != null) {
                    return l;
                }
                progress.accept(l);
            }
        }
        throw CallFailure.unreachable(what + ": node " + node.name() + "'s agent ended without saying it was done");
    }
}
