package mesh.host.edge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import mesh.model.EdgeTable;

/**
 * UpstreamFiles is where the edge's Caddy finds each route's upstream: one small file per route inside the edge
 * container ({@link #DIR}), holding {@code address:port}, named in the route's dial by Caddy's {@code {file.*}}
 * placeholder, which Caddy reads at each request (Caddy 2.8 and newer). Pointing a route elsewhere — a cutover's
 * switch, a take's new node — is then a rename of that file and no load of Caddy's configuration: a load replaces
 * the HTTP server, which sends every HTTP/2 connection of every route a GOAWAY, and a request a client sends as that
 * GOAWAY crosses it is refused unprocessed (docs/cutover.md). The configuration changes only when routes come or go.
 * Pure: the files' names, which of them a change rewrites, and the command that writes them.
 */
public final class UpstreamFiles {

    /** DIR is the edge container's directory of upstream files (in its writable layer, like Caddy's own /tmp). */
    public static final String DIR = "/tmp/mesh-upstreams";
    /** TOO_OLD is the write command's exit status when the container's Caddy is older than 2.8 or is not there. */
    public static final int TOO_OLD = 3;

    /**
     * The write command's script for the directory {@code dir} ({@code sh -c SCRIPT sh NAME ADDRESS ...}): it checks
     * the Caddy beside it knows the placeholder, then writes each file whole (a temporary file renamed over it), so
     * a request never reads half an address. {@code caddy version} prints {@code v2.11.4 h1:...} (official builds)
     * or {@code 2.11.4} (Debian's).
     */
    static String script(String dir) {
        return """
                v=$(caddy version 2>/dev/null); v=${v#v}
                case "$v" in 2.[0-7]|2.[0-7].*|2.[0-7]-*|'') exit 3;; esac
                mkdir -p '%s' || exit 4
                while [ $# -ge 2 ]; do
                  printf %%s "$2" > '%s'/".$1.new" && mv -f '%s'/".$1.new" '%s'/"$1" || exit 5
                  shift 2
                done
                """.formatted(dir, dir, dir, dir);
    }

    private UpstreamFiles() {
    }

    /** The file of a route: its name, a wildcard's {@code *} as {@code _} (a host name never holds one). */
    static String file(String route) {
        return route.replace('*', '_');
    }

    /** The dial Caddy is given for a route: the placeholder that reads its file at each request. */
    public static String dial(String route) {
        return "{file." + DIR + "/" + file(route) + "}";
    }

    /** What each route's file should hold: its file name to its upstream. */
    public static Map<String, String> wanted(EdgeTable table) {
        Map<String, String> files = new TreeMap<>();
        table.routes().forEach(r -> files.put(file(r.name()), r.upstream()));
        return files;
    }

    /** The files of {@code wanted} that {@code written} does not hold as they are: what the next write sends. */
    public static Map<String, String> changed(Map<String, String> written, Map<String, String> wanted) {
        Map<String, String> changed = new TreeMap<>();
        wanted.forEach((name, upstream) -> {
            if (!upstream.equals(written.get(name))) {
                changed.put(name, upstream);
            }
        });
        return changed;
    }

    /** The command, run in the edge container, that writes these files ({@link #script}). */
    public static List<String> command(Map<String, String> files) {
        return command(DIR, files);
    }

    static List<String> command(String dir, Map<String, String> files) {
        List<String> command = new ArrayList<>(List.of("sh", "-c", script(dir), "sh"));
        files.forEach((name, upstream) -> {
            command.add(name);
            command.add(upstream);
        });
        return command;
    }

    /** Why a write's exit status means this container cannot hold the files (then the routes' dials are literal). */
    public static String cannot(int exit) {
        return switch (exit) {
            case TOO_OLD -> "its Caddy is older than 2.8 (no {file.*} placeholder) or has no caddy command";
            case 126, 127 -> "it has no sh to write them with";
            default -> null;
        };
    }
}
