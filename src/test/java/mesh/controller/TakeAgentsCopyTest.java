package mesh.controller;

import mesh.wire.CallFailure;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import mesh.model.Node;
import mesh.plan.CopyStall;
import mesh.wire.CopyProgress;
import mesh.wire.VolumeCopyRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * TakeAgentsCopyTest: the controller's read of a copy's progress lines never waits for ever. A target that
 * goes silent (as a SIGSTOPped agent does: its connection stays open) and a target whose lines say no byte
 * moves each fail the copy, naming the volume, the node and why; a copy that ends is read to its last line.
 * A fake agent (the JDK's HTTP server) plays the target; the bounds are a second, not the production 30 and 45 s.
 */
class TakeAgentsCopyTest {

    FakeLineAgent fake;

    @AfterEach
    void stop() {
        if (fake != null) {
            fake.close();
        }
    }

    /** A target agent that sends {@code lines}, one every {@code every}, then holds the stream open (or ends it). */
    Node target(String[] lines, Duration every, boolean thenHold) throws IOException {
        fake = new FakeLineAgent("/v1/volumes/web/data/copy", 200, List.of(lines), every, thenHold);
        return fake.node();
    }

    CopyProgress copy(Node target) {
        TakeAgents agents = new TakeAgents(new AgentClient(), Duration.ofSeconds(1), new CopyStall(Duration.ofSeconds(1)));
        return agents.copy(target, "web", "data", new VolumeCopyRequest(7, "container", "http://10.77.0.11:7701", "t"),
                line -> { });
    }

    @Test
    void aTargetThatGoesSilentFailsTheCopySayingSo() throws Exception {
        Node n2 = target(new String[] {"{\"bytes\": 10, \"files\": 1, \"rate\": 10}"}, Duration.ZERO, true);
        long started = System.nanoTime();
        CallFailure e = assertThrows(CallFailure.class, () -> copy(n2));
        assertEquals("the copy of volume data to node n2: node n2's agent sent no progress for 1 s (stopped, or the link"
                + " to it is down)", e.getMessage());
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(10).toNanos(), "given up on within the deadline");
    }

    @Test
    void aTargetWhoseBytesDoNotGrowFailsTheCopyAsStalled() throws Exception {
        String flat = "{\"bytes\": 500, \"files\": 1, \"rate\": 0}";
        Node n2 = target(new String[] {flat, flat, flat, flat, flat, flat, flat, flat}, Duration.ofMillis(300), true);
        CallFailure e = assertThrows(CallFailure.class, () -> copy(n2));
        assertTrue(e.getMessage().startsWith("the copy of volume data to node n2: no byte of volume data was copied for 1 s"
                + " (still at 500 B)"), e.getMessage());
    }

    @Test
    void aCopyThatEndsIsReadToItsLastLine() throws Exception {
        Node n2 = target(new String[] {"{\"bytes\": 10, \"files\": 1, \"rate\": 10}",
            "{\"done\": true, \"bytes\": 20, \"files\": 2, \"seconds\": 0.5}"}, Duration.ofMillis(100), false);
        CopyProgress last = copy(n2);
        assertEquals(Boolean.TRUE, last.done());
        assertEquals(20L, last.bytes());
    }
}
