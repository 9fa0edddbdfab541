package mesh.cli;

import java.time.Duration;
import mesh.model.DurationText;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * WaitTimeout is the one rule of {@code --timeout}, how long a verb waits ({@code push --wait}, {@code rollback --wait},
 * {@code backup --wait}, {@code upgrade} for each part it moves): a {@link DurationText} from 1s to 24h, refused before
 * anything is asked as a usage error (exit 2) otherwise. {@code --wait-timeout}, push's and rollback's name for it
 * before there was one name, is still read (hidden from the help), so scripts keep working.
 */
final class WaitTimeout {

    static final String NAME = "--timeout";
    static final String OLD_NAME = "--wait-timeout";
    static final Duration LEAST = Duration.ofSeconds(1);
    static final Duration MOST = Duration.ofHours(24);

    private WaitTimeout() {
    }

    /**
     * The timeout a verb with {@code --wait} uses: {@code --timeout} (or its old name), or {@code otherwise} (null: none)
     * when neither was given. Given without {@code --wait}, twice, or out of bounds, it is a usage error naming the flag
     * as typed.
     */
    static Duration of(CommandSpec spec, Duration timeout, Duration oldName, boolean waiting, Duration otherwise) {
        if (timeout != null && oldName != null) {
            throw new ParameterException(spec.commandLine(), NAME + " is given twice (" + OLD_NAME + " is its old name)");
        }
        String typed = timeout != null ? NAME : OLD_NAME;
        Duration given = timeout != null ? timeout : oldName;
        if (given == null) {
            return otherwise;
        }
        if (!waiting) {
            throw new ParameterException(spec.commandLine(), typed + " needs --wait");
        }
        return checked(spec, typed, given);
    }

    /** {@code given} when it is from 1s to 24h; else a usage error naming {@code typed}. */
    static Duration checked(CommandSpec spec, String typed, Duration given) {
        if (given.compareTo(LEAST) < 0 || given.compareTo(MOST) > 0) {
            throw new ParameterException(spec.commandLine(), typed + ": must be from " + DurationText.words(LEAST) + " to "
                    + DurationText.words(MOST) + ", got " + DurationText.words(given));
        }
        return given;
    }
}
