package mesh.controller;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/** NodeInput checks what an operator gives for a node before anything is stored. */
final class NodeInput {

    static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,62}");
    static final Pattern TOKEN = Pattern.compile("[0-9a-f]{32,128}");
    static final Pattern DOMAIN = Pattern.compile("([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)+[a-z]{2,63}");

    private NodeInput() {
    }

    static List<String> problems(String name, String address, String agent) {
        List<String> problems = new ArrayList<>();
        if (name == null || !NAME.matcher(name).matches()) {
            problems.add("node name: lower-case letters, digits and '-', got '" + name + "'");
        }
        if (!mesh.model.DeclarationCheck.isIpv4(address)) {
            problems.add("address: an IPv4 address on the mesh, got '" + address + "'");
        }
        if (agent != null && !agent.isBlank()) {
            try {
                URI uri = URI.create(agent);
                if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null) {
                    problems.add("agent: an http(s) URL like http://10.0.0.2:7701, got '" + agent + "'");
                }
            } catch (IllegalArgumentException e) {
                problems.add("agent: not a URL: '" + agent + "'");
            }
        }
        return problems;
    }

    static String defaultAgent(String address) {
        return "http://" + address + ":7701";
    }

    static boolean isDomain(String domain) {
        return DOMAIN.matcher(domain).matches();
    }
}
