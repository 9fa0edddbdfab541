package mesh.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;

/** CliLoggingTest: a verb run without a boot logs as a booted one does ({@code HH:mm:ss.SSS LEVEL message}). */
class CliLoggingTest {

    @Test
    void aRecordIsOneLineWithQuarkusLevelNames() {
        LogRecord r = new LogRecord(Level.WARNING, "push: node {0} is behind");
        r.setParameters(new Object[] {"g14"});
        String line = new CliLogging.Line().format(r);
        assertTrue(line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d WARN  push: node g14 is behind" + System.lineSeparator()), line);
    }

    @Test
    void levelsAreNamedAsQuarkusNamesThem() {
        assertEquals("ERROR", CliLogging.Line.level(Level.SEVERE));
        assertEquals("WARN", CliLogging.Line.level(Level.WARNING));
        assertEquals("INFO", CliLogging.Line.level(Level.INFO));
        assertEquals("DEBUG", CliLogging.Line.level(Level.FINE));
    }

    @Test
    void aThrowableFollowsTheMessage() {
        LogRecord r = new LogRecord(Level.SEVERE, "failed");
        r.setThrown(new IllegalStateException("the store is gone"));
        assertTrue(new CliLogging.Line().format(r).contains("ERROR failed: java.lang.IllegalStateException: the store is gone"));
    }
}
