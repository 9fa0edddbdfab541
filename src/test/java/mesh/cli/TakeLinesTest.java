package mesh.cli;

import mesh.model.TakeStep;
import mesh.model.OperationState;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import mesh.wire.TakeView;
import org.junit.jupiter.api.Test;

/** TakeLinesTest: the take's lines for people, on plain values. */
class TakeLinesTest {

    static TakeView take(String state, String step, String error, String problem) {
        return new TakeView("web", "n1", "n2", 7, false, TakeStep.of(step), OperationState.of(state), false, List.of(), null, error, problem, List.of(), List.of());
    }

    @Test
    void progressSaysBytesFilesRateAndWhatIsLeft() {
        TakeView.Progress p = new TakeView.Progress("data", 120_000_000, 1234, 200_000_000, 40_000_000, 2);
        assertEquals("copy data: 120 MB of 200 MB, 1234 files, 40 MB/s, about 2 s left", TakeLines.progress(p));
        assertEquals("[##################............]  60% copy data: 120 MB of 200 MB, 1234 files, 40 MB/s, about 2 s left",
                TakeLines.bar(p, 30));
        assertEquals("copy data: 5 B, 1 file, 0 B/s", TakeLines.progress(new TakeView.Progress("data", 5, 1, 0, 0, -1)));
    }

    @Test
    void eachEndIsSaidWithWhatToDo() {
        assertEquals("web runs on n2; its names and routes resolve there; n1 keeps the old copy until"
                + " 'mesh take --forget-old web'", TakeLines.end(take("done", "done", null, null)));
        assertEquals("the take failed and was rolled back: verify: volume data: a: size 1 on the source, 2 on the target;"
                + " web runs on n1 again", TakeLines.end(take("rolled-back", "rolled-back",
                "verify: volume data: a: size 1 on the source, 2 on the target", null)));
        assertEquals("the take failed and was rolled back: copy: volume data: no data from the source agent at"
                + " https://10.77.0.11:7701 for 30 s; web runs on n1 again; but delete-copy: node n2's agent did not"
                + " answer; the partial copy of web (volume data) is left on n2: it is never started there, and the next"
                + " take into n2 empties it", TakeLines.end(take("rolled-back", "rolled-back",
                "copy: volume data: no data from the source agent at https://10.77.0.11:7701 for 30 s",
                "delete-copy: node n2's agent did not answer; the partial copy of web (volume data) is left on n2: it is"
                        + " never started there, and the next take into n2 empties it")));
        assertEquals("the take waits at step push: push: node n3's agent did not answer; 'mesh take n2 web' carries it on",
                TakeLines.end(take("running", "push", null, "push: node n3's agent did not answer")));
        assertEquals("taking web from n1 to n2 (epoch 7)", TakeLines.head(take("running", "copy", null, null)));
    }

    @Test
    void eachPassIsSaidWithItsBytesAndFiles() {
        assertEquals("pass 1 data (module running): " + mesh.plan.Bytes.human(2_000_000_000L) + ", 5001 files in 14.2 s",
                TakeLines.pass("data", 1, new TakeView.Pass(true, 2_000_000_000L, 5001, 0, 14.23, 1)));
        assertEquals("delta data (module stopped): " + mesh.plan.Bytes.human(20_000_000L) + ", 41 files, 3 deleted in 0.4 s",
                TakeLines.pass("data", 3, new TakeView.Pass(false, 20_000_000L, 41, 3, 0.4, 1)));
        assertEquals("pass 2 data (module running): " + mesh.plan.Bytes.human(1) + ", 1 file in 0.0 s",
                TakeLines.pass("data", 2, new TakeView.Pass(true, 1, 1, 0, 0.01, 1)));
    }

    @Test
    void stepsAPollMissedAreSaidOnTheWayForwardOnly() {
        TakeView t = new TakeView("web", "n1", "n2", 7, false, TakeStep.of("verify"), OperationState.of("running"), true,
                List.of(new TakeView.Volume("data", "container", 1, 1, true, null, null, List.of())), null, null, null, List.of(), List.of());
        assertEquals(List.of("ticket", "copy", "verify"), TakeLines.stepsSince(t, TakeStep.of("fence"), TakeStep.of("verify")));
        assertEquals(List.of("preflight", "fence", "ticket", "copy", "verify"), TakeLines.stepsSince(t, null, TakeStep.of("verify")));
        TakeView.Pass live = new TakeView.Pass(true, 2_000_000_000L, 5001, 0, 14.23, 1);
        TakeView preCopied = new TakeView("web", "n1", "n2", 7, false, TakeStep.of("verify"), OperationState.of("running"), true,
                List.of(new TakeView.Volume("data", "container", 1, 1, true, null, null, List.of(live))), null, null, null, List.of(), List.of());
        assertEquals(List.of("preflight", "pre-copy", "fence", "ticket", "copy", "verify"),
                TakeLines.stepsSince(preCopied, null, TakeStep.of("verify")));
        TakeView done = new TakeView("web", "n1", "n2", 7, false, TakeStep.of("done"), OperationState.of("done"), false, t.volumes(), null, null, null,
                List.of(), List.of());
        assertEquals(List.of("switch", "push", "old-copy"), TakeLines.stepsSince(done, TakeStep.of("start"), TakeStep.of("done")));
        TakeView nowhere = new TakeView("web", null, "n2", 7, false, TakeStep.of("switch"), OperationState.of("running"), true, List.of(), null, null, null,
                List.of(), List.of());
        assertEquals(List.of("preflight", "start", "switch"), TakeLines.stepsSince(nowhere, null, TakeStep.of("switch")));
        TakeView rolling = new TakeView("web", "n1", "n2", 7, false, TakeStep.of("unfence"), OperationState.of("running"), true, t.volumes(), null,
                "verify: x", null, List.of(), List.of());
        assertEquals(List.of("unfence"), TakeLines.stepsSince(rolling, TakeStep.of("verify"), TakeStep.of("unfence")));
    }

    @Test
    void longWaitsAreSaidInMinutesAndHours() {
        assertEquals("90 s", TakeLines.duration(90));
        assertEquals("5 min", TakeLines.duration(300));
        assertEquals("3 h", TakeLines.duration(3 * 3600));
    }
}
