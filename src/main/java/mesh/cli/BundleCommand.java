package mesh.cli;

import java.nio.file.Path;
import java.util.List;
import mesh.bundle.BundleFailure;
import mesh.bundle.BundleLimits;
import mesh.bundle.BundlePush;
import mesh.bundle.BundleRef;
import mesh.bundle.HttpRegistry;
import mesh.plan.MeshPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * BundleCommand publishes and lists bundles: executables the host agents fetch from the mesh's
 * artifact store (an OCI registry) by digest and run as supervised processes.
 */
@Command(name = "bundle", mixinStandardHelpOptions = true,
        description = {"Bundles: executables that nodes fetch from the artifact store and run as processes.",
            "A bundle is a file, or a folder with one executable, that nodes fetch by digest, verify, unpack and run. NAME@sha256:<digest> pins exactly one content.",
            "",
            "The artifact store is the mesh's registry (module mesh-registry, port 5000): --registry URL, or else "
                    + "mesh-registry.internal from the roster of the controller at MESH_CONTROLLER (with MESH_TOKEN)."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh bundle push ./mesh-runner mesh:0.1 --registry http://10.77.0.11:5000",
            "  mesh bundle push ./dist controller:0.2 --entrypoint bin/controller",
            "  mesh bundle list -o json"})
public class BundleCommand {

    static final String REGISTRY_NAME = "mesh-registry.internal";
    static final int REGISTRY_PORT = 5000;

    @Spec
    CommandSpec spec;

    final Output output = new Output();

    @Mixin
    OutputOption format;

    @Command(name = "push", mixinStandardHelpOptions = true,
            description = {"Publish a file or folder as a bundle and print its NAME@sha256:<digest>.",
                "PATH becomes bundle NAME[:TAG] (tag 'latest' if none); the printed reference pins exactly this "
                        + "content. The layer is a reproducible tar.gz (sorted, no times, no owners): the same content gives "
                        + "the same digest, and blobs the store has are not sent again.",
                "A file bundle runs that file; a folder bundle runs --entrypoint, or its only executable at the top.",
                "Links that leave the folder, absolute or '..' paths and special files are refused."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh bundle push ./mesh-runner mesh:0.1 --registry http://10.77.0.11:5000",
                "  mesh bundle push ./dist controller:0.2 --entrypoint bin/controller"})
    int push(@Parameters(index = "0", paramLabel = "PATH", description = "a file or a folder") Path path,
            @Parameters(index = "1", paramLabel = "NAME[:TAG]", description = "e.g. controller:0.1 (lowercase; '/' allowed)") String name,
            @Option(names = "--registry", paramLabel = "URL", description = "the artifact store, e.g. http://10.77.0.11:5000") String registry,
            @Option(names = "--entrypoint", paramLabel = "PATH", description = "the executable's path inside a folder bundle") String entrypoint) {
        BundleRef ref = ref(name);
        try {
            String url = registryUrl(registry);
            BundlePush.Pushed pushed = new BundlePush(new HttpRegistry(url), BundleLimits.DEFAULT).push(path, ref, entrypoint);
            if (format.json()) {
                output.json(spec, pushed);
            } else {
                output.line(spec, pushed.reference());
            }
            onlyThere(url, "bundle " + pushed.reference()).ifPresent(l -> output.error(spec, l));
            return ExitCodes.OK;
        } catch (BundleFailure e) {
            throw new VerbFailure(e.getMessage());
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Every bundle in the artifact store: name, tag and the digest the tag names now.",
                "Images and other artifacts in the same registry are left out."},
            footerHeading = "%nExamples:%n",
            footer = {"  mesh bundle list",
                "  mesh bundle list --registry http://10.77.0.11:5000 -o json"})
    int list(@Option(names = "--registry", paramLabel = "URL", description = "the artifact store, e.g. http://10.77.0.11:5000") String registry) {
        try {
            List<BundlePush.Listed> bundles = new BundlePush(new HttpRegistry(registryUrl(registry)), BundleLimits.DEFAULT).list();
            if (format.json()) {
                output.json(spec, bundles);
            } else {
                output.table(spec, List.of("NAME", "TAG", "DIGEST"),
                        bundles.stream().map(b -> List.of(b.name(), b.tag(), b.digest())).toList());
            }
            return ExitCodes.OK;
        } catch (BundleFailure e) {
            throw new VerbFailure(e.getMessage());
        }
    }

    /** The artifact store's one line when the bundle is on the seat's artifact store only ({@link ArtifactStoreNote}). */
    private static java.util.Optional<String> onlyThere(String url, String what) {
        try {
            return ArtifactStoreNote.of(ControllerClient.fromEnvironment(), url, what);
        } catch (VerbFailure noController) {
            return java.util.Optional.empty();   // --registry without a mesh: nothing to say of its seats
        }
    }

    private static BundleRef ref(String text) {
        try {
            BundleRef ref = BundleRef.parse(text);
            if (ref.pinned()) {
                throw new VerbFailure("'" + text + "': a push names a tag (NAME[:TAG]); the digest is what it prints");
            }
            return ref;
        } catch (IllegalArgumentException e) {
            throw new VerbFailure(e.getMessage());
        }
    }

    /** The registry to use: {@code --registry}, else the roster's mesh-registry.internal on port 5000. */
    static String registryUrl(String given) {
        if (given != null) {
            return given;
        }
        ControllerClient controller;
        try {
            controller = ControllerClient.fromEnvironment();
        } catch (VerbFailure e) {
            throw new VerbFailure("no artifact store: give --registry URL (e.g. http://HOST:5000), or MESH_CONTROLLER and"
                    + " MESH_TOKEN of a mesh whose roster names " + REGISTRY_NAME);
        }
        List<MeshPlan.RosterEntry> roster;
        try {
            roster = controller.api().roster();
        } catch (VerbFailure | mesh.wire.CallFailure e) {
            throw new VerbFailure(e.getMessage() + "\n(or give the artifact store with --registry URL)");
        }
        return fromRoster(roster).orElseThrow(() -> new VerbFailure("the mesh's roster has no " + REGISTRY_NAME
                + " (is module mesh-registry assigned and pushed?); give the artifact store with --registry URL"));
    }

    /** The artifact store's URL as the roster names it: {@code http://<address of mesh-registry.internal>:5000}. */
    static java.util.Optional<String> fromRoster(List<MeshPlan.RosterEntry> roster) {
        return roster.stream().filter(e -> REGISTRY_NAME.equals(e.name())).findFirst()
                .map(e -> "http://" + e.address() + ":" + REGISTRY_PORT);
    }
}
