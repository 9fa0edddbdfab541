package mesh.host.process;

import static mesh.host.process.Identity.Verdict.ADOPT;
import static mesh.host.process.Identity.Verdict.FOREIGN;
import static mesh.host.process.Identity.Verdict.GONE;
import static mesh.host.process.Records.BOOT;
import static mesh.host.process.Records.CMDLINE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** IdentityTest: a process is ours only when pid, start time, boot id and command line all match. */
class IdentityTest {

    static Stream<Arguments> cases() {
        ProcessRecord r = Records.running("sha256:aa");
        return Stream.of(
                Arguments.of("all match", r, Optional.of(Records.proc(4242, 1000, CMDLINE)), BOOT, ADOPT),
                Arguments.of("no such pid", r, Optional.empty(), BOOT, GONE),
                Arguments.of("zombie of another process", r, Optional.of(new ProcInfo(4242, 'Z', 4242, 4242, 999, List.of())), BOOT, FOREIGN),
                Arguments.of("ours, ended, not yet reaped", r, Optional.of(new ProcInfo(4242, 'Z', 4242, 4242, 1000, List.of())), BOOT, GONE),
                Arguments.of("pid reused: other start time", r, Optional.of(Records.proc(4242, 1001, CMDLINE)), BOOT, FOREIGN),
                Arguments.of("pid reused: other command line", r, Optional.of(Records.proc(4242, 1000, List.of("sleep", "9"))), BOOT, FOREIGN),
                Arguments.of("not a session leader", r, Optional.of(new ProcInfo(4242, 'S', 7, 7, 1000, CMDLINE)), BOOT, FOREIGN),
                Arguments.of("another boot, pid taken", r, Optional.of(Records.proc(4242, 1000, CMDLINE)), "other-boot", FOREIGN),
                Arguments.of("another boot, pid free", r, Optional.empty(), "other-boot", GONE),
                Arguments.of("no process recorded", ProcessRecord.fresh(Records.spec("sha256:aa")),
                        Optional.of(Records.proc(4242, 1000, CMDLINE)), BOOT, GONE),
                Arguments.of("no record", null, Optional.empty(), BOOT, GONE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void judgesByTheWholeIdentity(String name, ProcessRecord record, Optional<ProcInfo> seen, String boot, Identity.Verdict expected) {
        assertEquals(expected, Identity.judge(record, seen, boot));
    }

    @org.junit.jupiter.api.Test
    void remnantsAreTheMembersOfOurEndedShimsGroupAndOnlyThose() {
        ProcessRecord r = Records.running("sha256:aa");
        ProcInfo child = new ProcInfo(4300, 'S', 4242, 4242, 1100, List.of("httpd"));
        ProcInfo stranger = new ProcInfo(4301, 'S', 4301, 4301, 1100, List.of("sleep"));
        ProcInfo deadChild = new ProcInfo(4302, 'Z', 4242, 4242, 1100, List.of());
        List<ProcInfo> all = List.of(child, stranger, deadChild);
        assertEquals(List.of(child), Identity.remnants(r, Optional.empty(), all, BOOT), "shim gone and reaped");
        assertEquals(List.of(child), Identity.remnants(r, Optional.of(new ProcInfo(4242, 'Z', 4242, 4242, 1000, List.of())), all, BOOT),
                "our shim is a zombie");
        assertEquals(List.of(), Identity.remnants(r, Optional.of(Records.proc(4242, 1000, CMDLINE)), all, BOOT), "our shim runs");
        assertEquals(List.of(), Identity.remnants(r, Optional.of(Records.proc(4242, 5000, List.of("x"))), all, BOOT),
                "the pid is another's now: group 4242 may be its");
        assertEquals(List.of(), Identity.remnants(r, Optional.empty(), all, "other-boot"), "another boot");
    }
}
