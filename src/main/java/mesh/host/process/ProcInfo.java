package mesh.host.process;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * ProcInfo is what {@code /proc/PID} says of one process: its start time (field 22 of {@code stat}, clock
 * ticks since boot), its state, process group and session, and its command line. Together with the boot id
 * it tells a process apart from a later one that got the same pid.
 */
public record ProcInfo(long pid, char state, long processGroup, long session, long startTime, List<String> cmdline) {

    public ProcInfo {
        cmdline = List.copyOf(cmdline);
    }

    /** A zombie has ended: only its exit status is left for its parent to collect. */
    public boolean ended() {
        return state == 'Z' || state == 'X' || state == 'x';
    }

    /**
     * parse reads {@code /proc/PID/stat} and {@code /proc/PID/cmdline}. The command name (field 2) may hold
     * spaces and parentheses, so the fields are counted from the last ')'.
     */
    public static ProcInfo parse(long pid, String stat, byte[] cmdline) {
        int close = stat.lastIndexOf(')');
        if (close < 0) {
            throw new IllegalArgumentException("/proc/" + pid + "/stat has no command name: " + stat);
        }
        String[] f = stat.substring(close + 1).trim().split(" +");
        if (f.length < 20) {
            throw new IllegalArgumentException("/proc/" + pid + "/stat has " + (f.length + 2) + " fields, expected at least 22");
        }
        // f[0] is field 3 (state), so field N is f[N - 3].
        return new ProcInfo(pid, f[0].charAt(0), Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[19]),
                splitCmdline(cmdline));
    }

    static List<String> splitCmdline(byte[] raw) {
        List<String> args = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] == 0) {
                args.add(new String(raw, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        if (start < raw.length) {
            args.add(new String(raw, start, raw.length - start, StandardCharsets.UTF_8));
        }
        return args;
    }
}
