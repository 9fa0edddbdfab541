package mesh.model;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * EdgeCheck lists what is wrong with a declaration's edge table, beside {@link DeclarationCheck}'s
 * component checks, so a bad route table is refused whole before anything is recorded.
 */
final class EdgeCheck {

    private EdgeCheck() {
    }

    static void problems(Declaration d, List<String> problems) {
        EdgeTable e = d.edge();
        if (e == null) {
            return;
        }
        if (e.component() == null || d.component(e.component()).isEmpty()) {
            problems.add("edge.component: must name a component of this declaration, got " + quoted(e.component()));
        }
        if (!EdgeTable.TLS_ACME.equals(e.tls()) && !EdgeTable.TLS_INTERNAL.equals(e.tls())) {
            problems.add("edge.tls: must be 'acme' or 'internal', got " + quoted(e.tls()));
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < e.routes().size(); i++) {
            EdgeTable.Route r = e.routes().get(i);
            String where = "edge.routes[" + i + "]";
            if (r == null) {
                problems.add(where + ": is null");
                continue;
            }
            String host = r.name() != null && r.name().startsWith("*.") ? r.name().substring(2) : r.name();
            if (host == null || !DeclarationCheck.HOSTNAME.matcher(host).matches()) {
                problems.add(where + ".name: not a host name: " + quoted(r.name()));
            } else if (!names.add(r.name())) {
                problems.add(where + ".name: " + r.name() + " is routed twice");
            }
            if (!upstream(r.upstream())) {
                problems.add(where + ".upstream: must be ADDRESS:PORT (an IPv4 address, a port 1-65535), got "
                        + quoted(r.upstream()));
            }
        }
    }

    private static boolean upstream(String text) {
        if (text == null) {
            return false;
        }
        int colon = text.lastIndexOf(':');
        if (colon < 1 || !DeclarationCheck.isIpv4(text.substring(0, colon))) {
            return false;
        }
        String port = text.substring(colon + 1);
        return port.matches("[0-9]{1,5}") && Integer.parseInt(port) >= 1 && Integer.parseInt(port) <= 65535;
    }

    private static String quoted(Object value) {
        return value == null ? "nothing" : "'" + value + "'";
    }
}
