package mesh.model;

import static mesh.model.ManifestInputTest.WEB;
import static mesh.model.ManifestInputTest.bad;
import static mesh.model.ManifestInputTest.field;

import java.util.List;
import mesh.model.ManifestInputTest.Case;

/** ManifestInputCases is ManifestInputTest's table, by kind of mistake. */
final class ManifestInputCases {

    private ManifestInputCases() {
    }

    /** The file's shape: not YAML, not one mapping, aliases, documents, keys. */
    static List<Case> syntax() {
        return List.of(
                bad("not YAML (an unclosed flow)", "module: [unclosed\ncomponents: {\n", "2:11: not YAML: expected ',' or ']', but got :"),
                bad("bad indentation", "module: a\ncomponents:\n  a.web:\n    image: busybox\n   ports: [80]\n",
                        "5:4: not YAML: expected <block end>, but found '<block mapping start>' (while parsing a block mapping at line 3); check the indentation"),
                bad("a key and a value on one line twice", "module: a components: b\n", "1:21: not YAML: mapping values are not allowed here"),
                bad("a tab for indentation", "module: a\ncomponents:\n\ta.web: {image: busybox}\n", "3:1: not YAML: "),
                bad("an empty file", "", "1:1: a manifest is a mapping with 'module' and 'components', got an empty file"),
                bad("only a comment", "# nothing yet\n", "1:1: a manifest is a mapping with 'module' and 'components', got an empty file"),
                bad("a list instead of a mapping", "- module: a\n- components: {}\n",
                        "1:1: a manifest is a mapping with 'module' and 'components', got a list"),
                bad("a bare word", "gitea\n", "1:1: a manifest is a mapping with 'module' and 'components', got \"gitea\""),
                bad("an alias for the image", "module: a\nx-img: &img busybox:1\ncomponents:\n  a.web:\n    image: *img\n",
                        "5:12: an alias (*img) is not allowed in a manifest; write the value out"),
                bad("a merge key with an alias", "module: a\ncomponents:\n  a.base: &base {image: busybox}\n  a.web:\n    <<: *base\n",
                        "5:9: an alias (*base) is not allowed"),
                bad("a second document", WEB + "---\nmodule: b\ncomponents:\n  b.web: {image: busybox}\n",
                        "5:1: a second YAML document; a manifest file holds exactly one module"),
                bad("a key given twice", "module: a\nmodule: b\ncomponents:\n  a.web:\n    image: x\n",
                        "2:1: module: given twice (first on line 1)"),
                bad("a component given twice", WEB + "  a.web:\n    image: busybox\n",
                        "5:3: components.a.web: given twice (first on line 3)"),
                bad("a field of a component given twice", WEB + "    image: busybox\n",
                        "5:5: components.a.web.image: given twice (first on line 4)"),
                bad("a list as a key", "module: a\ncomponents:\n  ? [a, b]\n  : {image: busybox}\n",
                        "3:5: components: a key is a name, got a list"),
                bad("an unknown field at top level", WEB + "colour: red\n", "5:1: colour: unknown field (known here: module, components, routes)"),
                bad("a misspelt top-level field", WEB.replace("components:", "componets:"),
                        "2:1: componets: unknown field, did you mean 'components'?"),
                field("a misspelt component field (letters swapped)", "imgae: busybox",
                        "5:5: components.a.web.imgae: unknown field, did you mean 'image'?"),
                field("stop_timeout with an underscore", "stop_timeout: 5s",
                        "5:5: components.a.web.stop_timeout: unknown field, did you mean 'stop-timeout'?"),
                field("stopTimeout in camel case", "stopTimeout: 5s",
                        "5:5: components.a.web.stopTimeout: unknown field, did you mean 'stop-timeout'?"),
                field("a misspelt health field", "health: {htp: /, port: 80}",
                        "5:14: components.a.web.health.htp: unknown field, did you mean 'http'?"),
                bad("a misspelt route field", WEB + "routes:\n  www: {component: a.web, prot: 80}\n",
                        "6:27: routes.www.prot: unknown field, did you mean 'port'?"));
    }

    /** Values of the wrong kind, said in the manifest's words. */
    static List<Case> types() {
        return List.of(
                field("a port as a string", "ports: [\"8080\"]", "5:13: components.a.web.ports[0]: a number, got \"8080\""),
                field("a port as a word", "ports: [http]", "5:13: components.a.web.ports[0]: a number, got \"http\""),
                field("a port with a fraction", "ports: [80.5]", "5:13: components.a.web.ports[0]: a number, got \"80.5\""),
                field("a null port", "ports: [~]", "5:13: components.a.web.ports[0]: a number, got nothing"),
                field("ports as one string", "ports: \"80\"", "5:12: components.a.web.ports: a list of port numbers, got \"80\""),
                field("ports as a mapping", "ports: {http: 80}", "5:12: components.a.web.ports: a list of port numbers, got a mapping"),
                field("a null in args", "args: [sh, ~]", "5:16: components.a.web.args[1]: a string, got nothing"),
                field("a list in args", "args: [sh, [a]]", "5:16: components.a.web.args[1]: a string, got a list"),
                field("args as one string", "args: httpd -f", "5:11: components.a.web.args: a list of words, got \"httpd -f\""),
                field("a null env value", "env: {A: null}", "5:14: components.a.web.env.A: needs a value; write A: \"\" for an empty one"),
                field("an env value left empty", "env:\n      A:\n      B: x", "6:9: components.a.web.env.A: needs a value"),
                field("an env value that is a list", "env: {A: [1, 2]}", "5:14: components.a.web.env.A: a string, got a list"),
                field("env as a list", "env: [A=1]", "5:10: components.a.web.env: a mapping of variable name to value, got a list"),
                field("an env name with '='", "env: {\"A=B\": x}", "5:11: components.a.web.env.A=B: a variable name is not empty and holds no '='"),
                bad("an image that is a list", "module: a\ncomponents:\n  a.web:\n    image: [busybox]\n",
                        "4:12: components.a.web.image: a string, got a list"),
                bad("components as a list", "module: a\ncomponents: [a.web]\n",
                        "2:13: components: a mapping of component name to component, got a list"),
                bad("a component that is a string", "module: a\ncomponents:\n  a.web: busybox\n",
                        "3:10: components.a.web: a component is a mapping with at least 'image', got \"busybox\""),
                bad("routes as a list", WEB + "routes: [www]\n", "5:9: routes: a mapping of route name to {component, port}, got a list"),
                bad("a route that is a string", WEB + "routes:\n  www: a.web\n", "6:8: routes.www: a route is a mapping {component: C, port: P}, got \"a.web\""),
                bad("a route port as a string", WEB + "routes:\n  www: {component: a.web, port: \"80\"}\n",
                        "6:33: routes.www.port: a number, got \"80\""),
                field("health as a string", "health: /healthz", "5:13: components.a.web.health: a mapping {http: PATH, port: P} or {command: [...]}, got \"/healthz\""),
                field("a health command as one string", "health: {command: \"curl -f x\"}",
                        "5:23: components.a.web.health.command: a list of words, got \"curl -f x\""),
                field("a health timeout as a duration", "health: {command: [true], timeoutSeconds: 30s}",
                        "5:47: components.a.web.health.timeoutSeconds: a number, got \"30s\""),
                field("after as one string", "after: a.db", "5:12: components.a.web.after: a list of component names, got \"a.db\""),
                field("binds with a null", "binds: [~]", "5:13: components.a.web.binds[0]: a string, got nothing"),
                field("volumes as a list", "volumes: [/data]", "5:14: components.a.web.volumes: a mapping of volume name to path, got a list"),
                field("a volume without path", "volumes: {data: }", "5:20: components.a.web.volumes.data: a string, got nothing"),
                field("stop-timeout as a list", "stop-timeout: [5s]", "5:19: components.a.web.stop-timeout: a string, got a list"));
    }

    /** Names: module, component, route and bound names are DNS names; images follow Docker's grammar. */
    static List<Case> names() {
        String long64 = "a".repeat(64);
        return List.of(
                bad("no module", "components:\n  a.web:\n    image: mesh-test/busybox:1\n", "1:1: module: is required"),
                bad("a module with a space", WEB.replace("module: a", "module: Bad Name!"), "1:9: module: not a valid name: \"Bad Name!\" holds ' ', '!', which a DNS name cannot"),
                bad("a module with an underscore", WEB.replace("module: a", "module: my_app"),
                        "1:9: module: not a valid name: \"my_app\" has '_', which a DNS name cannot hold; use '-'"),
                bad("a module in upper case", WEB.replace("module: a", "module: Gitea"),
                        "1:9: module: not a valid name: \"Gitea\" has upper-case letters; names are lower-case (gitea)"),
                bad("a module with a dot", WEB.replace("module: a", "module: a.b"), "1:9: module: must be one DNS label, without '.'"),
                bad("a module with a trailing dot", WEB.replace("module: a", "module: gitea."), "1:9: module: must be one DNS label, without '.'"),
                bad("a module ending in '-'", WEB.replace("module: a", "module: gitea-"), "1:9: module: not a valid name: \"gitea-\" starts or ends with '-'"),
                bad("a module of 64 characters", WEB.replace("module: a", "module: " + long64),
                        "1:9: module: not a valid name: \"" + "a".repeat(17) + "...\" is 64 characters; a DNS label has at most 63"),
                bad("a module that is a list", WEB.replace("module: a", "module: [a]"), "1:9: module: a string, got a list"),
                bad("a component name with a space", WEB.replace("a.web:", "\"a web\":"), "3:3: components.a web: not a valid name: \"a web\" holds ' ', which a DNS name cannot"),
                bad("a component name with an underscore", WEB.replace("a.web:", "a_web:"), "3:3: components.a_web: not a valid name: \"a_web\" has '_'"),
                bad("a component name with a trailing dot", WEB.replace("a.web:", "a.web.:"), "3:3: components.a.web.: not a valid name: \"a.web.\": an empty name part"),
                bad("a component name part of 64 characters", WEB.replace("a.web:", "a." + long64 + ":"),
                        "3:3: components.a." + long64 + ": not a valid name: \"a." + "a".repeat(15) + "...\": \"" + "a".repeat(17) + "...\" is 64 characters; a DNS label has at most 63"),
                bad("a component name in upper case", WEB.replace("a.web:", "a.Web:"), "3:3: components.a.Web: not a valid name: \"a.Web\": \"Web\" has upper-case letters"),
                bad("a route name with an underscore", WEB + "routes:\n  my_www: {component: a.web, port: 80}\n",
                        "6:3: routes.my_www: not a valid name: \"my_www\" has '_'"),
                bad("a route name with a dot", WEB + "routes:\n  w.w: {component: a.web, port: 80}\n", "6:3: routes.w.w: must be one DNS label"),
                bad("a route name of 64 characters", WEB + "routes:\n  " + long64 + ": {component: a.web, port: 80}\n",
                        "6:3: routes." + long64 + ": not a valid name:"),
                field("a bind that is not a host name", "binds: [\"not a host\"]", "5:13: components.a.web.binds[0]: not a host name: \"not a host\""),
                field("a bind with a trailing dot", "binds: [db.internal.]", "5:13: components.a.web.binds[0]: not a host name: \"db.internal.\": an empty name part"),
                field("a bind with an underscore", "binds: [my_db.internal]", "5:13: components.a.web.binds[0]: not a host name: \"my_db.internal\": \"my_db\" has '_'"),
                field("a bind with a port", "binds: [db.internal:5432]", "5:13: components.a.web.binds[0]: \"db.internal:5432\" is a host name with a port; binds take the name alone (db.internal)"),
                field("a bind with a bad part", "binds: [db.inter+nal]", "5:13: components.a.web.binds[0]: not a host name: \"db.inter+nal\": \"inter+nal\" holds '+'"),
                field("a bind in upper case", "binds: [DB.internal]", "5:13: components.a.web.binds[0]: not a host name: \"DB.internal\": \"DB\" has upper-case letters"),
                field("a bind given twice", "binds: [db.internal, db.internal]", "5:26: components.a.web.binds[1]: \"db.internal\" is already in binds[0]"),
                field("a bind with a label over 63", "binds: [" + long64 + ".internal]", "5:13: components.a.web.binds[0]: not a host name: \""),
                bad("an image with a space", WEB.replace("mesh-test/busybox:1", "busy box"),
                        "4:12: components.a.web.image: not an image reference: \"busy box\""),
                bad("an image in upper case", WEB.replace("mesh-test/busybox:1", "mesh-test/BusyBox:1"),
                        "4:12: components.a.web.image: not an image reference: \"mesh-test/BusyBox:1\"; Docker refuses upper-case letters in a repository name"),
                bad("an image with an empty tag", WEB.replace("mesh-test/busybox:1", "\"busybox:\""), "4:12: components.a.web.image: not an image reference: \"busybox:\""),
                bad("an image with a short digest", WEB.replace("mesh-test/busybox:1", "busybox@sha256:abc"),
                        "4:12: components.a.web.image: not an image reference: \"busybox@sha256:abc\""),
                bad("an image with a tag of 129 characters", WEB.replace("mesh-test/busybox:1", "busybox:" + "t".repeat(129)),
                        "4:12: components.a.web.image: not an image reference:"),
                bad("an image path ending in '/'", WEB.replace("mesh-test/busybox:1", "mesh-test/"), "4:12: components.a.web.image: not an image reference: \"mesh-test/\""),
                bad("an image name over 255 characters", WEB.replace("mesh-test/busybox:1", "r/" + "a".repeat(254)),
                        "4:12: components.a.web.image: the image name is 256 characters; Docker allows 255"));
    }

    /** The rules of single fields and of fields together. */
    static List<Case> fields() {
        return List.of(
                bad("no components", "module: a\n", "1:1: components: a module needs at least one component"),
                bad("an empty components mapping", "module: a\ncomponents: {}\n", "2:1: components: a module needs at least one component"),
                bad("an empty component", "module: a\ncomponents:\n  a.web:\n", "3:3: components.a.web: is empty; a component needs at least its image"),
                bad("a component without image", "module: a\ncomponents:\n  a.web:\n    ports: [80]\n", "3:3: components.a.web.image: is required"),
                bad("both image and bundle", "module: a\ncomponents:\n  a.web:\n    image: mesh-test/busybox:1\n    bundle: mesh\n",
                        "5:5: components.a.web.bundle: give exactly one of image (a container) or bundle (a process), not both"),
                bad("a process with volumes that give one variable", "module: a\ncomponents:\n  a.web:\n    bundle: mesh\n"
                        + "    volumes: {my-data: /a, my_data: /b}\n",
                        "5:28: components.a.web.volumes.my_data: volumes my-data and my_data would both be MESH_VOLUME_MY_DATA"
                                + " to the process; rename one"),
                bad("a bad bundle reference", "module: a\ncomponents:\n  a.web:\n    bundle: Mesh:1\n",
                        "4:13: components.a.web.bundle: 'Mesh:1': name 'Mesh' must be lowercase letters and digits"),
                bad("a bundle with a short digest", "module: a\ncomponents:\n  a.web:\n    bundle: mesh@sha256:abc\n",
                        "4:13: components.a.web.bundle: 'mesh@sha256:abc': the part after @ must be sha256:<64 lowercase hex>"),
                field("a port of 0", "ports: [0]", "5:13: components.a.web.ports[0]: must be 1-65535, got 0"),
                field("a port out of range", "ports: [70000]", "5:13: components.a.web.ports[0]: must be 1-65535, got 70000"),
                field("a negative port", "ports: [-80]", "5:13: components.a.web.ports[0]: must be 1-65535, got -80"),
                field("a port with twenty digits", "ports: [99999999999999999999]", "5:13: components.a.web.ports[0]: must be 1-65535"),
                field("one port twice in a component", "ports: [80, 80]", "5:17: components.a.web.ports[1]: 80 is already in ports[0]"),
                bad("two components publishing one port", WEB + "    ports: [80]\n  a.api:\n    image: mesh-test/busybox:1\n    ports: [80]\n",
                        "8:12: components.a.api.ports: port 80 is already published by a.web"),
                field("a relative volume path", "volumes: {data: data}", "5:21: components.a.web.volumes.data: must be an absolute path (starting with '/'), got \"data\""),
                field("a volume over '/'", "volumes: {data: /}", "5:21: components.a.web.volumes.data: cannot be '/'"),
                field("a volume path that climbs", "volumes: {data: /data/../etc}", "5:21: components.a.web.volumes.data: must not climb with '..'"),
                field("a volume path with a trailing slash", "volumes: {data: /data/}", "5:21: components.a.web.volumes.data: write it normalised, as \"/data\""),
                field("a volume path with '//'", "volumes: {data: /var//data}", "5:21: components.a.web.volumes.data: write it normalised, as \"/var/data\""),
                field("a volume path with '.'", "volumes: {data: /./data}", "5:21: components.a.web.volumes.data: write it normalised, as \"/data\""),
                field("a volume over '/' spelt '/./'", "volumes: {data: /./}", "5:21: components.a.web.volumes.data: cannot be '/' (written \"/./\")"),
                field("two volumes on one path spelt twice", "volumes: {data: /data, more: /data/}", "5:34: components.a.web.volumes.more: write it normalised, as \"/data\""),
                field("two volumes on one path", "volumes: {data: /data, more: /data}", "5:34: components.a.web.volumes.more: \"/data\" is already the path of volume data"),
                field("a volume name with a space", "volumes: {\"my data\": /data}", "5:15: components.a.web.volumes.my data: not a volume name"),
                field("stop-timeout without a unit", "stop-timeout: 5", "5:19: components.a.web.stop-timeout: must be a duration with its unit (ms, s or m) like 30s, got \"5\" (add the unit: 5s)"),
                field("stop-timeout: soon", "stop-timeout: soon", "5:19: components.a.web.stop-timeout: must be a duration with its unit (ms, s or m) like 30s, got \"soon\""),
                field("stop-timeout in hours", "stop-timeout: 1h", "5:19: components.a.web.stop-timeout: must be a duration with its unit (ms, s or m) like 30s, got \"1h\""),
                field("stop-timeout over the hour allowed", "stop-timeout: 90m", "5:19: components.a.web.stop-timeout: must be at most 60m, got 90m"),
                field("stop-timeout with a huge number", "stop-timeout: 99999999999s", "5:19: components.a.web.stop-timeout: must be a duration"),
                field("stop-timeout negative", "stop-timeout: -5s", "5:19: components.a.web.stop-timeout: must be a duration"),
                field("after naming a missing component", "after: [a.db]", "5:12: components.a.web.after: \"a.db\" is not a component of this module (components: a.web)"),
                field("after naming itself", "after: [a.web]", "5:12: components.a.web.after: names itself"),
                bad("an after cycle", WEB + "    after: [a.db]\n  a.db:\n    image: mesh-test/busybox:1\n    after: [a.web]\n",
                        "5:12: components.a.web.after: components wait on each other in a cycle: a.web -> a.db -> a.web"),
                bad("a route to a missing component", WEB + "routes:\n  www: {component: a.nope, port: 80}\n",
                        "6:20: routes.www.component: must name a component of this module, got \"a.nope\" (components: a.web)"),
                bad("a route to a port its component does not publish", WEB + "    ports: [80]\nroutes:\n  www: {component: a.web, port: 81}\n",
                        "7:33: routes.www.port: module a: route www goes to port 81 of a.web, which does not publish it (its ports: 80)"),
                bad("a route without port", WEB + "routes:\n  www: {component: a.web}\n", "6:3: routes.www.port: is required: the component's port (1-65535)"),
                bad("a route without component", WEB + "routes:\n  www: {port: 80}\n", "6:3: routes.www.component: is required"),
                bad("a route port out of range", WEB + "routes:\n  www: {component: a.web, port: 65536}\n", "6:33: routes.www.port: must be 1-65535, got 65536"),
                bad("an empty route", WEB + "routes:\n  www:\n", "6:3: routes.www: is empty"),
                bad("a route domain of one label", WEB + "routes:\n  www: {component: a.web, port: 80, domain: zurag}\n",
                        "6:45: routes.www.domain: must be a public domain like zurag.be (a node's, 'mesh node public-domain'): \"zurag\""),
                bad("a route domain with an underscore", WEB + "routes:\n  www: {component: a.web, port: 80, domain: my_x.be}\n",
                        "6:45: routes.www.domain: must be a public domain like zurag.be"),
                bad("a route named ** instead of *", WEB + "routes:\n  \"**\": {component: a.web, port: 80}\n",
                        "6:3: routes.**: not a valid name: "),
                field("health with both http and command", "health: {http: /, port: 80, command: [curl, -f, x]}",
                        "5:13: components.a.web.health: give exactly one of 'http' (with 'port') or 'command'"),
                field("health with neither", "health: {timeoutSeconds: 5}", "5:13: components.a.web.health: give exactly one of"),
                field("an http health check without port", "health: {http: /healthz}", "5:14: components.a.web.health.port: an HTTP health check needs the container's port"),
                field("an http health path without '/'", "health: {http: healthz, port: 80}", "5:20: components.a.web.health.http: a path starting with '/', got \"healthz\""),
                field("an empty health command", "health: {command: []}", "5:23: components.a.web.health.command: must hold at least the program to run"),
                field("a health timeout of 0", "health: {command: [true], timeoutSeconds: 0}", "5:47: components.a.web.health.timeoutSeconds: must be 1-3600, got 0"),
                field("a health port out of range", "health: {http: /, port: 99999}", "5:29: components.a.web.health.port: must be 1-65535, got 99999"));
    }
}
