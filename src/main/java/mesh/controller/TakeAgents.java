package mesh.controller;

import mesh.wire.CallFailure;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import mesh.client.AgentApi;
import mesh.model.Node;
import mesh.plan.CopyStall;
import mesh.wire.CopyProgress;
import mesh.wire.DiskView;
import mesh.wire.FenceLifted;
import mesh.wire.FenceView;
import mesh.wire.VolumeCopyRequest;
import mesh.model.VolumeManifest;
import mesh.wire.VolumeView;

/**
 * TakeAgents is the take's part of the controller's edge to the agents: the calls of the take
 * contract (docs/take.md), each bounded, each failure a {@link CallFailure} naming
 * the node. The copy itself runs agent to agent; the controller only reads its progress lines.
 */
class TakeAgents {

    /**
     * Stopping a module waits on its stop timeouts; a manifest hashes every byte of a volume; an image pull or a
     * bundle fetch downloads. Ten minutes bound each of those calls (an agent that is stopped or cut off answers
     * none of them); every other call of a take has {@link AgentClient#REQUEST}, the copy {@link #NO_LINE}.
     */
    static final Duration SLOW = Duration.ofMinutes(10);

    /**
     * A rollback's delete of a copy: removing a volume's files takes seconds, not the ten minutes of {@link #SLOW};
     * a target that does not answer within this is tried again, and after its tries the take ends rolled back
     * with the copy left ({@code TakePlan.gaveUp}), the module running on the source since the unfence before.
     */
    static final Duration DELETE = Duration.ofMinutes(2);

    /** The longest the target may send no progress line on a copy (it sends one a second): then the copy step fails. */
    static final Duration NO_LINE = Duration.ofSeconds(30);

    /** A copy whose lines still come but whose bytes did not grow for this long is stalled: the copy step fails. */
    static final CopyStall STALL = new CopyStall(Duration.ofSeconds(45));

    private final AgentClient agents;
    private final Duration noLine;
    private final CopyStall stall;

    TakeAgents(AgentClient agents) {
        this(agents, NO_LINE, STALL);
    }

    /** With other bounds on a copy's lines and bytes (tests: a second, not half a minute). */
    TakeAgents(AgentClient agents, Duration noLine, CopyStall stall) {
        this.agents = agents;
        this.noLine = noLine;
        this.stall = stall;
    }

    FenceView fence(Node node, String module, long epoch) {
        return agents.call(node, AgentApi.fence(module, epoch), SLOW);
    }

    /** On the target, before the source's fence: the module fenced there and its containers created, not started. */
    mesh.wire.TakeCreated createFenced(Node node, String module, long epoch, mesh.model.Declaration declaration) {
        return agents.call(node, AgentApi.createFenced(module, epoch, declaration), SLOW);
    }

    FenceLifted unfence(Node node, String module, long epoch) {
        return agents.call(node, AgentApi.unfence(module, epoch), AgentClient.REQUEST);
    }

    String ticket(Node node, String module, long epoch) {
        return agents.call(node, AgentApi.ticket(module, epoch), AgentClient.REQUEST).ticket();
    }

    /** A pre-copy ticket at {@code epoch}: reads the module's volumes on the node while it runs there. */
    String liveTicket(Node node, String module, long epoch) {
        return agents.call(node, AgentApi.liveTicket(module, epoch), AgentClient.REQUEST).ticket();
    }

    /** The module's volumes of {@code kind} on the node. */
    List<VolumeView> volumes(Node node, String module, String kind) {
        List<VolumeView> found = agents.call(node, AgentApi.volumes(module, kind), SLOW);
        return found == null ? List.of() : found;
    }

    /** The images of {@code images} the node's engine lacks even after pulling them (POST /v1/images). */
    List<mesh.wire.ImagesAnswer.Missing> images(Node node, List<String> images) {
        mesh.wire.ImagesAnswer a = agents.call(node, AgentApi.images(new mesh.wire.ImagesRequest(images, true)), SLOW);
        return a == null || a.missing() == null ? List.of() : a.missing();
    }

    /**
     * The bundles of {@code bundles} the node lacks and cannot get from {@code registry} (POST /v1/bundles):
     * with {@code fetch} it fetches each one it lacks first; without, it asks the store whether it has it.
     */
    List<mesh.wire.BundlesAnswer.Missing> bundles(Node node, List<String> bundles, String registry, boolean fetch) {
        if (bundles.isEmpty()) {
            return List.of();
        }
        mesh.wire.BundlesAnswer a = agents.call(node, AgentApi.bundles(new mesh.wire.BundlesRequest(bundles, registry, fetch)),
                SLOW);
        return a == null || a.missing() == null ? List.of() : a.missing();
    }

    /** The free bytes where a copy lands: {@code path}/{@code free} are the tighter of the engine's data root and the state dir. */
    DiskView disk(Node node) {
        return agents.call(node, AgentApi.disk(), AgentClient.REQUEST);
    }

    VolumeManifest manifest(Node node, String module, String volume, String kind) {
        return manifest(node, module, volume, kind, false);
    }

    /** As above; {@code warm}: made before the fence of a pre-copied take, so that the verify reads only what changed. */
    VolumeManifest manifest(Node node, String module, String volume, String kind, boolean warm) {
        return agents.call(node, AgentApi.manifest(module, volume, kind, warm), SLOW);
    }

    void oldCopy(Node node, String module, long epoch, List<String> volumes) {
        agents.call(node, AgentApi.oldCopy(module, epoch, volumes), AgentClient.REQUEST);
    }

    void delete(Node node, String module, String volume, String kind, long epoch, String reason) {
        agents.call(node, AgentApi.delete(module, volume, kind, epoch, reason), DELETE);
    }

    /**
     * Has the target copy one volume from the source agent, and hands each progress line to
     * {@code progress}; returns the last line. Streamed (application/x-ndjson): no deadline on the whole, as a
     * volume may take long, but one on each line: the target sends a line a second, so {@link #NO_LINE} without
     * one means it is stopped or cut off (a SIGSTOPped agent keeps its connection open and sends nothing, and a
     * read would wait for ever); and lines whose bytes do not grow for {@link #STALL}'s window mean the copy
     * moves no data. Either fails the copy naming the volume, the node and why. The target's head must come
     * within {@link #DELETE} (it empties an earlier copy of the volume before it answers).
     */
    CopyProgress copy(Node target, String module, String volume, VolumeCopyRequest body,
                           Consumer<CopyProgress> progress) {
        try (AgentLines lines = AgentLines.post(agents, target, AgentApi.copy(module, volume), body, DELETE, noLine,
                "the copy of volume " + volume + " to node " + target.name())) {
            return readLines(lines, target, volume, progress);
        }
    }

    private CopyProgress readLines(AgentLines lines, Node target, String volume, Consumer<CopyProgress> progress) {
        CopyProgress last = null;
        java.util.List<CopyStall.Sample> samples = new java.util.ArrayList<>(
                List.of(new CopyStall.Sample(java.time.Instant.now(), 0)));
        for (String line = lines.next(); line != null; line = lines.next()) {
            CopyProgress l = lines.parse(line, CopyProgress.class);
            last = l;
            if (l.done() != null) {
                return l;
            }
            progress.accept(l);
            java.time.Instant now = java.time.Instant.now();
            samples.add(new CopyStall.Sample(now, l.bytes() == null ? 0 : l.bytes()));
            samples = new java.util.ArrayList<>(CopyStall.kept(samples));
            if (stall.stalled(samples, now)) {
                throw CallFailure.unreachable("the copy of volume " + volume + " to node " + target.name() + ": "
                        + stall.describe(volume, samples) + " (node " + target.name() + " still sends its progress; the"
                        + " source agent sends no data)");
            }
        }
        throw CallFailure.unreachable("node " + target.name() + "'s agent ended the copy of volume " + volume
                + " without saying it was done" + (last == null ? "" : " (after " + last.bytes() + " bytes)"));
    }
}
