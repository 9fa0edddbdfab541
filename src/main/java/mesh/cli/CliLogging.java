package mesh.cli;

import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * CliLogging gives a verb that runs without booting Quarkus ({@link MeshMain}) the logging that
 * application.properties gives a booted one: mesh's own loggers at INFO, every library's at WARN,
 * one line per record on stderr as {@code HH:mm:ss.SSS LEVEL message}. The JDK's logging carries it
 * (JBoss Logging picks it when no log manager is installed).
 */
final class CliLogging {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    /** Held: the JDK keeps loggers weakly, and a collected one forgets its level. */
    private static Logger mesh;

    private CliLogging() {
    }

    static synchronized void configure() {
        Logger root = Logger.getLogger("");
        for (Handler h : root.getHandlers()) {
            root.removeHandler(h);
        }
        Handler stderr = new ConsoleHandler();
        stderr.setLevel(Level.ALL);
        stderr.setFormatter(new Line());
        root.addHandler(stderr);
        root.setLevel(Level.WARNING);
        mesh = Logger.getLogger("mesh");
        mesh.setLevel(Level.INFO);
    }

    /** {@code quarkus.log.console.format=%d{HH:mm:ss.SSS} %-5p %s%e%n}, in the JDK's terms. */
    static final class Line extends Formatter {
        @Override
        public String format(LogRecord r) {
            StringBuilder b = new StringBuilder(TIME.format(LocalTime.now())).append(' ')
                    .append(String.format("%-5s", level(r.getLevel()))).append(' ').append(formatMessage(r));
            if (r.getThrown() != null) {
                b.append(": ").append(r.getThrown());
            }
            return b.append(System.lineSeparator()).toString();
        }

        static String level(Level level) {
            if (level.intValue() >= Level.SEVERE.intValue()) {
                return "ERROR";
            }
            if (level.intValue() >= Level.WARNING.intValue()) {
                return "WARN";
            }
            return level.intValue() >= Level.INFO.intValue() ? "INFO" : "DEBUG";
        }
    }
}
