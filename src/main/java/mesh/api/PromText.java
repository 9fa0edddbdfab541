package mesh.api;

/**
 * PromText writes the Prometheus text exposition format (version 0.0.4): for each metric one
 * {@code # HELP} and one {@code # TYPE} line, then its samples, label values escaped as the format
 * says (backslash, double quote, line feed). It exists instead of a metrics library: a scrape reads
 * what the agent and the controller already hold and writes it out here, so nothing runs and nothing
 * is kept between scrapes (docs/metrics.md says why no library).
 */
public final class PromText {

    /** The content type Prometheus asks for and understands. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final StringBuilder out = new StringBuilder(4096);

    /** Starts a gauge: a value that goes up and down. */
    public PromText gauge(String name, String help) {
        return head(name, help, "gauge");
    }

    /** Starts a counter: a value that only rises (its name ends in {@code _total}), reset when its source restarts. */
    public PromText counter(String name, String help) {
        if (!name.endsWith("_total")) {
            throw new IllegalArgumentException("a counter's name ends in _total: " + name);
        }
        return head(name, help, "counter");
    }

    private PromText head(String name, String help, String type) {
        out.append("# HELP ").append(name).append(' ').append(help.replace("\\", "\\\\").replace("\n", "\\n")).append('\n');
        out.append("# TYPE ").append(name).append(' ').append(type).append('\n');
        return this;
    }

    /** One sample: the metric's name, its labels as name, value pairs, and its value. */
    public PromText sample(String name, double value, String... labels) {
        if (labels.length % 2 != 0) {
            throw new IllegalArgumentException("labels come in name, value pairs: " + String.join(",", labels));
        }
        out.append(name);
        if (labels.length > 0) {
            out.append('{');
            for (int i = 0; i < labels.length; i += 2) {
                if (i > 0) {
                    out.append(',');
                }
                out.append(labels[i]).append("=\"").append(escape(labels[i + 1])).append('"');
            }
            out.append('}');
        }
        out.append(' ').append(number(value)).append('\n');
        return this;
    }

    /** 1 for true, 0 for false: how Prometheus carries a yes or no. */
    public static double bool(boolean b) {
        return b ? 1 : 0;
    }

    static String escape(String value) {
        return value == null ? "" : value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }

    static String number(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        return Double.toString(v); // 1.0E-4: Prometheus reads Go's floats, exponent included
    }

    @Override
    public String toString() {
        return out.toString();
    }
}
