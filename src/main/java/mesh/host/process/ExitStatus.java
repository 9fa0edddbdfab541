package mesh.host.process;

/**
 * ExitStatus is how a supervised process last ended: an exit code, a signal, or unknown (its shim was
 * killed before it could write the status). {@code at} is when it ended (ISO-8601).
 *
 * <p>The shim learns the status from {@code sh}'s {@code wait}, which reports a signal N as 128+N, so
 * {@link #fromWait} reads 129..192 as a signal: a program that itself exits with such a code is reported as
 * killed by that signal. That is the price of a shim in plain {@code sh} (see {@link ProcessSupervisor}).
 */
public record ExitStatus(Integer code, Integer signal, String at) {

    /** The status from the shim's {@code wait} value. */
    public static ExitStatus fromWait(int value, String at) {
        if (value > 128 && value <= 128 + 64) {
            return new ExitStatus(null, value - 128, at);
        }
        return new ExitStatus(value, null, at);
    }

    public static ExitStatus signalled(int signal, String at) {
        return new ExitStatus(null, signal, at);
    }

    public static ExitStatus unknown(String at) {
        return new ExitStatus(null, null, at);
    }

    /** "exit 1", "signal 9" or "unknown (no status was written)". */
    public String describe() {
        if (code != null) {
            return "exit " + code;
        }
        if (signal != null) {
            return "signal " + signal;
        }
        return "unknown (no status was written)";
    }
}
