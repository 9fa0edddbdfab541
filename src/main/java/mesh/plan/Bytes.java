package mesh.plan;

import java.util.Locale;

/** Bytes says a size in the operator's words (1.5 GB); the take's lines and its progress use it. */
public final class Bytes {

    private Bytes() {
    }

    public static String human(long bytes) {
        if (bytes < 1000) {
            return bytes + " B";
        }
        String[] units = {"kB", "MB", "GB", "TB"};
        double v = bytes;
        int i = -1;
        while (v >= 1000 && i < units.length - 1) {
            v /= 1000;
            i++;
        }
        return String.format(Locale.ROOT, v < 10 ? "%.1f %s" : "%.0f %s", v, units[i]);
    }
}
