package mesh.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * DrainFleet is the twelve modules one case of {@link DrainIT} puts on n2 and drains, and their binders on the other
 * nodes. Module i is {@code <prefix>i}, a busybox httpd on port {@code ports + i} with a volume {@code data} of
 * {@link #mb} MB: module 1 the largest, module 2 a process module ({@code bundle:}), module 3 routed through n3's edge
 * ({@code <route>.n3.test}), and, when {@code odd}, module 12 on an image only n2's engine has, so its take to any
 * target is refused. A binder on n3 binds modules 1 and 2, one on n4 module 3, one on n1 module 12, and a module that
 * binds nothing runs on each of n1, n3 and n4. Two fleets differ in every name and port, so both fit on one mesh.
 */
record DrainFleet(String prefix, int ports, int largestMb, boolean odd, String route) {

    static final int MODULES = 12;
    static final String ONLY_ON_N2 = "mesh-test/only-on-n2:1";

    /** A binder: its module, its node, the modules whose names it binds. */
    record Binder(String module, String node, List<String> binds) {

        String container() {
            return node + "/" + module + ".server";
        }
    }

    String module(int i) {
        return prefix + i;
    }

    /** The process module and its component. */
    String proc() {
        return module(2);
    }

    String process() {
        return proc() + ".proc";
    }

    String routed() {
        return module(3);
    }

    String host() {
        return route + ".n3.test";
    }

    /** The module whose take is refused, or null when every module can move. */
    String refused() {
        return odd ? module(MODULES) : null;
    }

    boolean isModule(String name) {
        return name.matches(prefix + "\\d+");
    }

    int mb(int i) {
        return i == 1 ? largestMb : 1 + i % 4;
    }

    List<Binder> binders() {
        String b = prefix.equals("m") ? "" : prefix;
        return List.of(new Binder(b + "b3", "n3", List.of(module(1), module(2))), new Binder(b + "b4", "n4", List.of(module(3))),
                new Binder(b + "b1", "n1", List.of(module(MODULES))), new Binder(b + "i1", "n1", List.of()),
                new Binder(b + "i3", "n3", List.of()), new Binder(b + "i4", "n4", List.of()));
    }

    /** The binders' containers a move of {@code moved} replaces (they bind one of those names), sorted. */
    List<String> replaced(Set<String> moved) {
        List<String> out = new ArrayList<>();
        for (Binder b : binders()) {
            if (b.binds().stream().anyMatch(moved::contains)) {
                out.add(b.container());
            }
        }
        return out.stream().sorted().toList();
    }

    /** Module i's manifest: a busybox httpd with a volume and a port; module 2 a process, 3 routed, 12 perhaps odd. */
    String manifest(int i) {
        String m = module(i);
        if (m.equals(proc())) {
            return """
                    module: %1$s
                    components:
                      %2$s:
                        bundle: it/drain-proc:1
                        env: {PORT: "%3$d"}
                        volumes: {data: /data}
                        ports: [%3$d]
                        health: {http: /health.txt, port: %3$d}
                        stop-timeout: 2s
                    """.formatted(m, process(), ports + i);
        }
        String image = m.equals(refused()) ? ONLY_ON_N2 : "mesh-test/busybox:1";
        String routes = m.equals(routed())
                ? "routes:\n  %s: {component: %s.app, port: %d, domain: n3.test}\n".formatted(route, m, ports + i) : "";
        return """
                module: %1$s
                components:
                  %1$s.app:
                    image: %2$s
                    args: [sh, -c, "mkdir -p /www && echo %1$s > /www/index.html && exec httpd -f -p %3$d -h /www"]
                    volumes: {data: /data}
                    ports: [%3$d]
                    stop-timeout: 1s
                """.formatted(m, image, ports + i) + routes;
    }

    static String manifest(Binder b) {
        return """
                module: %1$s
                components:
                  %1$s.server:
                    image: mesh-test/busybox:1
                    args: [sh, -c, "trap 'exit 0' TERM; while true; do sleep 1; done"]
                    binds: %2$s
                    stop-timeout: 1s
                """.formatted(b.module(), b.binds().stream().map(m -> m + ".internal").toList());
    }
}
