package mesh.install;

import java.nio.file.Path;

/**
 * InstallOptions is what the operator asked of {@code mesh install} (see {@code mesh install --help}).
 *
 * @param join      the controller's URL when joining a mesh, else null (seat a new mesh)
 * @param joinToken the node's one-time join token, printed by {@code mesh node add}, when joining
 * @param home      the operator's home, where the CLI config is written
 * @param caHash    when joining: the mesh CA's hash ({@code sha256:…}) the controller's certificate must chain to
 * @param moduleNetworks the range the agent gives module networks from ({@code --module-networks}), null for
 *                  the agent's default
 */
public record InstallOptions(String node, String address, String publicDomain, String storeUrl, Path stateDir,
                             Path configDir, String engine, String storeImage, String registryImage, String join,
                             String joinToken, Path home, String caHash, String moduleNetworks) {

    /** The official images, pinned by digest: the installer never runs a tag that could move under it. */
    public static final String DEFAULT_STORE_IMAGE =
            "postgres:15@sha256:0ba1f2fbbbfbc2fe3a8ba4dda8e4b2dd4a12fb6fb0a2b7de9fa9ce0e5a1fd27a";
    public static final String DEFAULT_REGISTRY_IMAGE =
            "registry:2@sha256:a3d8aaa63ed8681a604f1dea0aa03f100d5895b6a58ace528858a7b332415373";

    public boolean joining() {
        return join != null;
    }

    /** This machine's TLS files (docs/trust.md). */
    public mesh.trust.TlsDir tls() {
        return new mesh.trust.TlsDir(stateDir.resolve("tls"));
    }
}
