package mesh.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * DeadlineLoopsTest keeps every wait of main code on {@code mesh.model.Poll}, the one place that asks, pauses and gives
 * up at a deadline with what it saw last. A wait written by hand is caught by what it cannot do without: a loop whose
 * condition reads the clock ({@code while (System.nanoTime() < deadline)}), the clock compared with a deadline
 * ({@code if (System.nanoTime() > deadline) throw ...}), or a pause of its own ({@code Thread.sleep}, a
 * {@code sleep(...)} helper). Time measured ({@code System.nanoTime() - began}) is not a wait, and a blocking call
 * with a timeout (a queue's poll, an executor's awaitTermination) waits on its own.
 */
class DeadlineLoopsTest {

    static final String CLOCK = "(?:\\bnanoTime|\\bcurrentTimeMillis)\\s*\\(\\s*\\)|\\bInstant\\s*\\.\\s*now\\s*\\(\\s*\\)";
    /** A loop whose condition reads the clock: a {@code while} up to its body or its ';', a {@code for} up to its body. */
    static final Pattern LOOP_ON_CLOCK = Pattern.compile(
            "\\bwhile\\s*\\([^{;]*?(?:" + CLOCK + ")|\\bfor\\s*\\([^{]*?(?:" + CLOCK + ")");
    /** The clock compared with a deadline, on either side. */
    static final Pattern CLOCK_COMPARED = Pattern.compile(
            "(?:" + CLOCK + ")\\s*[<>]|(?<![-<>])[<>]=?\\s*(?:System\\s*\\.\\s*)?(?:" + CLOCK + ")"
                    + "|\\bInstant\\s*\\.\\s*now\\s*\\(\\s*\\)\\s*\\.\\s*is(?:After|Before)\\b");
    /** A pause of its own: Thread.sleep, TimeUnit's sleep, a park, or a helper named sleep. */
    static final Pattern OWN_PAUSE = Pattern.compile("\\bsleep\\s*\\(|\\bparkNanos\\s*\\(");

    /** The one file that may: the helper itself. */
    static final String POLL = "mesh/model/Poll.java";
    /** Each hand-written wait in {@code source}, as the text that gives it away (spaces removed). */
    static List<String> handWaits(String source) {
        String code = SourceScan.NOT_CODE.matcher(source).replaceAll(" ");
        List<String> found = new ArrayList<>();
        for (Pattern p : List.of(LOOP_ON_CLOCK, CLOCK_COMPARED, OWN_PAUSE)) {
            Matcher m = p.matcher(code);
            while (m.find()) {
                found.add(m.group().replaceAll("\\s+", ""));
            }
        }
        return found;
    }

    static boolean exempt(String name) {
        return POLL.equals(name);
    }

    @Test
    void noMainCodeWaitsByHand() throws IOException {
        List<String> problems = new ArrayList<>();
        SourceScan.mainSources().forEach((name, source) -> {
            if (!exempt(name)) {
                handWaits(source).forEach(w -> problems.add(name + ": " + w));
            }
        });
        assertEquals(List.of(), problems, "wait through mesh.model.Poll (until, interruptibly, pause)");
    }

    @Test
    void theScanCatchesAMadeUpOffender() {
        String bad = """
                class X {
                    void a() {
                        long deadline = System.nanoTime() + LIMIT.toNanos();
                        while (System.nanoTime() < deadline) {
                            Thread.sleep(500);
                        }
                        while (ready() == false
                                && System.currentTimeMillis() < end) {
                            TimeUnit.SECONDS.sleep(1);
                        }
                        for (int i = 0; Instant.now().isBefore(until); i++) {
                            Poll.pause(ONE);
                        }
                        do {
                            AgentSetup.sleep(300);
                        } while (deadline > System.nanoTime());
                        while (true) {
                            if (System.nanoTime() > deadline) {
                                throw new IllegalStateException("too late");
                            }
                        }
                    }
                    static void sleep(long ms) { }
                }
                """;
        assertEquals(List.of("while(System.nanoTime()", "while(ready()==false&&System.currentTimeMillis()",
                        "for(inti=0;Instant.now()", "while(deadline>System.nanoTime()",
                        "nanoTime()<", "currentTimeMillis()<", "Instant.now().isBefore", ">System.nanoTime()", "nanoTime()>",
                        "sleep(", "sleep(", "sleep(", "sleep("),
                handWaits(bad));
    }

    @Test
    void timeMeasuredAWaitThroughPollAndWordsAreNotCaught() {
        String fine = """
                class Y {
                    // while (System.nanoTime() < deadline) Thread.sleep(5) was the old way
                    double a() {
                        long began = System.nanoTime();
                        Poll.Result<String> r = Poll.until(LIMIT, EVERY, () -> ready() ? Poll.got("up") : Poll.notYet("down"));
                        if (System.nanoTime() - began > LONG.toNanos()) {
                            log("slow");
                        }
                        List<String> command = List.of("sleep(", "3600");
                        Runnable r2 = () -> System.nanoTime();
                        return (System.nanoTime() - began) / 1e9;
                    }
                }
                """;
        assertEquals(List.of(), handWaits(fine));
    }

    @Test
    void onlyPollIsExempt() {
        assertEquals(List.of(true, false, false, false, false, false, false),
                List.of("mesh/model/Poll.java", "mesh/controller/TakeSteps.java", "mesh/plan/TakePlan.java",
                        "mesh/plan/TakeWords.java", "mesh/host/take/TakeTestHold.java", "mesh/plan/HostDiff.java",
                        "mesh/cli/TakeCommand.java").stream().map(DeadlineLoopsTest::exempt).toList());
    }
}
