package mesh.wire;

/** ReadTicket is a read ticket for one module's volumes at one take epoch (docs/take.md), 32 random bytes in hex. */
public record ReadTicket(String ticket) {
}
