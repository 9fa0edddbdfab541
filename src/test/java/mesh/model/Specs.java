package mesh.model;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Specs builds component specs and declarations for tests, as Nomad's mock.Node() does. */
public final class Specs {

    private Specs() {
    }

    public static Builder component(String name) {
        return new Builder(name);
    }

    public static Declaration declaration(String node, long generation, ComponentSpec... components) {
        return new Declaration(node, null, generation, List.of(components));
    }

    /** Builder starts from a busybox component of module "app" and changes one thing at a time. */
    public static final class Builder {
        private String module = "app";
        private final String name;
        private String image = "mesh-test/busybox:1";
        private List<String> args = List.of("sleep", "3600");
        private final Map<String, String> env = new LinkedHashMap<>();
        private final Map<String, String> volumes = new LinkedHashMap<>();
        private final List<Integer> ports = new ArrayList<>();
        private final Map<String, String> hosts = new LinkedHashMap<>();
        private HealthCheck health;
        private final List<String> after = new ArrayList<>();
        private Integer stopTimeout;
        private String network;
        private String bundle;
        private String replace;

        Builder(String name) {
            this.name = name;
        }

        public Builder module(String m) {
            module = m;
            return this;
        }

        /** Makes it a process: no image, this bundle. */
        public Builder bundle(String b) {
            bundle = b;
            image = null;
            return this;
        }

        public Builder image(String i) {
            image = i;
            return this;
        }

        public Builder args(String... a) {
            args = List.of(a);
            return this;
        }

        public Builder env(String k, String v) {
            env.put(k, v);
            return this;
        }

        public Builder volume(String name, String path) {
            volumes.put(name, path);
            return this;
        }

        public Builder port(int p) {
            ports.add(p);
            return this;
        }

        public Builder host(String name, String address) {
            hosts.put(name, address);
            return this;
        }

        public Builder health(HealthCheck h) {
            health = h;
            return this;
        }

        public Builder after(String... names) {
            after.addAll(List.of(names));
            return this;
        }

        public Builder stopTimeout(int seconds) {
            stopTimeout = seconds;
            return this;
        }

        /** Makes a change of it cut over ({@code replace: start-first}). */
        public Builder startFirst() {
            replace = ComponentSpec.START_FIRST;
            return this;
        }

        public Builder network(String n) {
            network = n;
            return this;
        }

        public ComponentSpec build() {
            return new ComponentSpec(module, name, image, bundle, args, env, volumes, ports, hosts, health, after,
                    stopTimeout, network, Map.of(), replace);
        }
    }
}
