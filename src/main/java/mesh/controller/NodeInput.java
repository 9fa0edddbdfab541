package mesh.controller;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import mesh.model.NodeNames;

/**
 * NodeInput checks what an operator gives for a node before anything is stored: a name that is a
 * DNS label, a mesh address that containers on every node can reach, an agent URL the controller
 * can call, and a public domain DNS can hold; the rules for name, address and domain are
 * {@link NodeNames}, which the installer keeps too.
 */
final class NodeInput {

    static final Pattern NAME = NodeNames.NAME;

    private NodeInput() {
    }

    static List<String> problems(String name, String address, String agent) {
        List<String> problems = new ArrayList<>();
        String nameProblem = NodeNames.nameProblem(name);
        if (nameProblem != null) {
            problems.add("node name: " + nameProblem);
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

    static String addressProblem(String address) {
        return NodeNames.addressProblem(address);
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
        return NodeNames.isDomain(domain);
    }

    static String domainProblem(String domain) {
        return NodeNames.domainProblem(domain);
    }

    private static String quoted(String text) {
        return NodeNames.quoted(text);
    }
}
