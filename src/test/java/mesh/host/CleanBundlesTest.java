package mesh.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** CleanBundlesTest: what was deleted is said, nothing deleted says nothing, and a failure is said without ending the pass. */
class CleanBundlesTest {

    static final PassStep.Context PASS = new PassStep.Context(PassStepsFixture.declaration(1), PassStepsFixture.NOW);

    @Test
    void saysWhatItDeletedOnlyWhenItDeletedSomething() {
        PassStepsFixture.Said info = new PassStepsFixture.Said();
        new CleanBundles((d, now) -> List.of(), PassStepsFixture.CLOCK, info, s -> { }).run(PASS);
        assertEquals(List.of(), info);
        new CleanBundles((d, now) -> List.of("web@sha256:ab"), PassStepsFixture.CLOCK, info, s -> { }).run(PASS);
        assertEquals(List.of("deleted 1 bundle(s) no component uses: [web@sha256:ab]"), info);
    }

    @Test
    void aFailureIsSaidAndThePassGoesOn() {
        PassStepsFixture.Said warn = new PassStepsFixture.Said();
        new CleanBundles((d, now) -> {
            throw new java.io.UncheckedIOException(new java.io.IOException("read-only file system"));
        }, PassStepsFixture.CLOCK, s -> { }, warn).run(PASS);
        assertEquals(List.of("could not clean the unused bundles: java.io.IOException: read-only file system"), warn);
    }
}
