package mesh.cli;

import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import mesh.trust.RecoveryKey;

/**
 * RecoveryPassphrase reads the operator's recovery passphrase where mesh takes it: a file the operator names, the
 * terminal (asked twice, not echoed) or stdin; never an argument or an environment variable, which other processes
 * can read ({@code /proc/PID/cmdline}, {@code /proc/PID/environ}). What it returns is only ever the key derived from
 * it ({@link RecoveryKey}); the characters are wiped once derived.
 */
final class RecoveryPassphrase {

    private RecoveryPassphrase() {
    }

    /** The key derived from the passphrase in {@code file}; a {@link VerbFailure} naming what is wrong with it. */
    static RecoveryKey fromFile(Path file) {
        try {
            return derived(RecoveryKey.passphraseIn(Files.readAllBytes(file)), file.toString());
        } catch (IOException e) {
            throw new VerbFailure("cannot read the recovery passphrase from " + file + ": " + e.getMessage());
        }
    }

    /** The key derived from the passphrase on {@code in} (all of it, without the line end after it). */
    static RecoveryKey fromStream(InputStream in) {
        try {
            return derived(RecoveryKey.passphraseIn(in.readAllBytes()), "stdin");
        } catch (IOException e) {
            throw new VerbFailure("cannot read the recovery passphrase from stdin: " + e.getMessage());
        }
    }

    /** The key derived from the passphrase typed twice on the terminal; null when there is no terminal or none is typed. */
    static RecoveryKey fromTerminal() {
        Console console = System.console();
        if (console == null) {
            return null;
        }
        char[] first = console.readPassword("recovery passphrase (it seals the mesh's state backups; %d characters or more,"
                + " empty for none yet): ", RecoveryKey.MIN_CHARS);
        if (first == null || first.length == 0) {
            return null;
        }
        char[] again = console.readPassword("the same again: ");
        if (first == null || again == null || !Arrays.equals(first, again)) {
            throw new VerbFailure("the two recovery passphrases differ: nothing was changed");
        }
        Arrays.fill(again, ' ');
        return derived(first, "the terminal");
    }

    /**
     * The passphrase a state backup is opened with ({@code mesh install --from-backup}): from {@code file}, or typed once
     * on the terminal; the caller wipes it. A {@link VerbFailure} when there is neither.
     */
    static char[] toOpen(Path file) {
        if (file != null) {
            try {
                return RecoveryKey.passphraseIn(Files.readAllBytes(file));
            } catch (IOException e) {
                throw new VerbFailure("install refused, nothing was changed: cannot read the recovery passphrase from " + file
                        + ": " + e.getMessage());
            }
        }
        Console console = System.console();
        char[] typed = console == null ? null : console.readPassword("recovery passphrase of the state backup: ");
        if (typed == null || typed.length == 0) {
            throw new VerbFailure("install refused, nothing was changed: the state backup opens with its recovery passphrase:"
                    + " give --recovery-passphrase-file FILE, or run it on a terminal to type it");
        }
        return typed;
    }

    private static RecoveryKey derived(char[] passphrase, String from) {
        try {
            String problem = RecoveryKey.problem(passphrase);
            if (problem != null) {
                throw new VerbFailure("the recovery passphrase from " + from + " is refused: " + problem + "; nothing was changed");
            }
            return RecoveryKey.derive(passphrase, RecoveryKey.Kdf.fresh());
        } finally {
            Arrays.fill(passphrase, ' ');
        }
    }
}
