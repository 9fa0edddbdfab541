package mesh.model;

/**
 * Node is one machine of the mesh.
 *
 * @param address      its mesh address: where its ports are published and its names resolve
 * @param agent        its host agent's URL
 * @param publicDomain the domain its edge serves routes under, or null
 */
public record Node(String name, String address, String agent, String publicDomain) {
}
