package mesh.controller;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * NodeInput checks what an operator gives for a node before anything is stored: a name that is a
 * DNS label, a mesh address that containers on every node can reach, an agent URL the controller
 * can call, and a public domain DNS can hold.
 */
final class NodeInput {

    static final Pattern NAME = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    static final Pattern DOMAIN = Pattern.compile("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}");
    static final Pattern IPV4 = Pattern.compile(
            "((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
    /** The longest name DNS can carry (RFC 1035: 255 octets on the wire, 253 characters written). */
    static final int MAX_DOMAIN = 253;

    private NodeInput() {
    }

    static List<String> problems(String name, String address, String agent) {
        List<String> problems = new ArrayList<>();
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add("node name: lower-case letters, digits and '-' (a DNS label: 1-63 characters, not starting "
                    + "or ending with '-'), got " + quoted(name));
        }
        String addressProblem = addressProblem(address);
        if (addressProblem != null) {
            problems.add("address: " + addressProblem);
        }
        if (agent != null && !agent.isBlank()) {
            String agentProblem = agentProblem(agent);
            if (agentProblem != null) {
                problems.add("agent: " + agentProblem);
            }
        }
        return problems;
    }

    /**
     * Why an address cannot be a node's mesh address, or null. It must be an IPv4 unicast address
     * that containers on every node reach: not loopback (in a container 127.0.0.1 is the container
     * itself), not unspecified, not link-local (not routed beyond one link, and 169.254.169.254 is
     * a cloud's metadata service), not multicast, broadcast or reserved.
     */
    static String addressProblem(String address) {
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

    /** Why an agent URL cannot be called, or null: http(s), a host, a port 1-65535, nothing else. */
    static String agentProblem(String agent) {
        String example = " (like http://10.0.0.2:7701)";
        if (!agent.startsWith("http://") && !agent.startsWith("https://")) {
            return "an http(s) URL" + example + ", got " + quoted(agent);
        }
        URI uri;
        try {
            uri = new URI(agent);
        } catch (URISyntaxException e) {
            return "not a URL: " + quoted(agent) + " (" + e.getReason() + ")";
        }
        if (uri.getHost() == null) {
            return "an http(s) URL with a valid host name or address" + example + ", got " + quoted(agent);
        }
        if (uri.getPort() != -1 && (uri.getPort() < 1 || uri.getPort() > 65535)) {
            return "the port must be 1-65535, got " + uri.getPort() + " in " + quoted(agent);
        }
        if (uri.getUserInfo() != null || uri.getQuery() != null || uri.getFragment() != null) {
            return "just scheme, host, port and path" + example + "; no credentials belong in it (the controller presents its certificate), got " + quoted(agent);
        }
        return null;
    }

    /** The agent's URL by default: HTTPS when this controller serves it (and so its agents do), else plain. */
    static String defaultAgent(String address) {
        return (mesh.trust.ServerTrust.enabled() ? "https://" : "http://") + address + ":7701";
    }

    static boolean isDomain(String domain) {
        return domainProblem(domain) == null;
    }

    /** Why a public domain cannot be one, or null: DNS labels of at most 63, 253 characters in all, no trailing dot. */
    static String domainProblem(String domain) {
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

    private static String quoted(String text) {
        return text == null ? "nothing" : "'" + text + "'";
    }
}
