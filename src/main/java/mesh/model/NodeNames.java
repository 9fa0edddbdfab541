package mesh.model;

import java.util.regex.Pattern;

/**
 * NodeNames keeps the rules for what names a node on the mesh: its name (a DNS label), its mesh
 * address and its public domain. The controller ({@code mesh node add}, {@code mesh node
 * public-domain}) and the installer's input check ({@code mesh install --node/--address/--public-domain})
 * both use them, so the installer never seats a node the controller would refuse.
 */
public final class NodeNames {

    public static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    public static final Pattern DOMAIN = Pattern.compile("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}");
    public static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    /** The longest name DNS can carry (RFC 1035: 255 octets on the wire, 253 characters written). */
    public static final int MAX_DOMAIN = 253;

    private NodeNames() {
    }

    /** Why a node's name cannot be one, or null: a DNS label, as names on the mesh are. */
    public static String nameProblem(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            return "lower-case letters, digits and '-' (a DNS label: 1-63 characters, not starting "
                    + "or ending with '-'), got " + quoted(name);
        }
        return null;
    }

    /**
     * Why an address cannot be a node's mesh address, or null. It must be an IPv4 unicast address
     * that containers on every node reach: not loopback (in a container 127.0.0.1 is the container
     * itself), not unspecified, not link-local (not routed beyond one link, and 169.254.169.254 is
     * a cloud's metadata service), not multicast, broadcast or reserved.
     */
    public static String addressProblem(String address) {
        if (address == null || !IPV4.matcher(address).matches()) {
            return "an IPv4 address on the mesh, got " + quoted(address);
        }
        String[] octets = address.split("\\.");
        int a = Integer.parseInt(octets[0]);
        int b = Integer.parseInt(octets[1]);
        String why = null;
        if (a == 127) {
            why = "a loopback address: inside a container it is the container itself, not the node";
        } else if (address.equals("0.0.0.0")) {
            why = "the unspecified address: it names no host that containers could reach";
        } else if (a == 0) {
            why = "in 0.0.0.0/8 (\"this network\"), which no host can be reached at";
        } else if (a == 169 && b == 254) {
            why = "a link-local address: not routed beyond one link, so containers on other nodes cannot reach it";
        } else if (a >= 224 && a <= 239) {
            why = "a multicast address: it names a group, not a node";
        } else if (address.equals("255.255.255.255")) {
            why = "the broadcast address: it names every host, not a node";
        } else if (a >= 240) {
            why = "a reserved address (240.0.0.0/4), which hosts do not use";
        }
        return why == null ? null : address + " is " + why + "; give the node's address on the mesh network";
    }

    public static boolean isDomain(String domain) {
        return domainProblem(domain) == null;
    }

    /** Why a public domain cannot be one, or null: DNS labels of at most 63, 253 characters in all, no trailing dot. */
    public static String domainProblem(String domain) {
        if (domain == null || domain.isBlank()) {
            return "a domain name like example.org is required";
        }
        if (domain.length() > MAX_DOMAIN) {
            return "a domain name has at most " + MAX_DOMAIN + " characters, got " + domain.length();
        }
        if (!DOMAIN.matcher(domain).matches()) {
            return "not a domain name: " + quoted(domain) + " (lower-case DNS labels of 1-63 characters joined by '.', "
                    + "ending in a top-level domain, no trailing '.')";
        }
        return null;
    }

    public static String quoted(String text) {
        return text == null ? "nothing" : "'" + text + "'";
    }
}
