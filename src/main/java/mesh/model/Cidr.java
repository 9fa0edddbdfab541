package mesh.model;

import java.util.List;

/**
 * Cidr is an IPv4 network, {@code 10.213.0.0/16}: a base address and a prefix length. It exists so that
 * the module networks' range, the engine's subnets and the node's own addresses and routes can be
 * compared as numbers (overlap, containment) rather than as text. The base is always the network's first
 * address: {@code 10.213.4.7/16} reads as {@code 10.213.0.0/16} only through {@link #enclosing}; {@link #parse}
 * refuses it, because a setting with host bits set is most often a typo.
 */
public record Cidr(int base, int prefix) {

    public Cidr {
        if (prefix < 0 || prefix > 32) {
            throw new IllegalArgumentException("a prefix length is 0 to 32, got " + prefix);
        }
        if ((base & mask(prefix)) != base) {
            throw new IllegalArgumentException(text(base) + "/" + prefix + " has host bits set");
        }
    }

    /**
     * Parses {@code A.B.C.D/N}; {@code what} names the setting in the error (e.g. "MESH_HOST_NETWORKS").
     * Refuses anything else, including host bits set, with a message saying what was expected.
     */
    public static Cidr parse(String text, String what) {
        String t = text == null ? "" : text.strip();
        int slash = t.indexOf('/');
        if (slash < 0) {
            throw new InvalidInput(List.of(what + " must be an IPv4 network like 10.213.0.0/16, got '" + t + "'"));
        }
        int address;
        int prefix;
        try {
            address = address(t.substring(0, slash));
            prefix = Integer.parseInt(t.substring(slash + 1));
        } catch (IllegalArgumentException e) {
            throw new InvalidInput(List.of(what + " must be an IPv4 network like 10.213.0.0/16, got '" + t + "'"));
        }
        if (prefix < 0 || prefix > 32) {
            throw new InvalidInput(List.of(what + " must be an IPv4 network like 10.213.0.0/16: the prefix length "
                    + prefix + " is not 0 to 32"));
        }
        if ((address & mask(prefix)) != address) {
            throw new InvalidInput(List.of(what + " " + t + " has host bits set: did you mean "
                    + enclosing(address, prefix) + "?"));
        }
        return new Cidr(address, prefix);
    }

    /** The network of {@code prefix} bits that holds {@code address} (an interface's address → its subnet). */
    public static Cidr enclosing(int address, int prefix) {
        return new Cidr(address & mask(prefix), prefix);
    }

    /** A dotted IPv4 address as a number; refuses anything else. */
    public static int address(String dotted) {
        String[] parts = dotted.strip().split("\\.", -1);
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: " + dotted);
        }
        int value = 0;
        for (String p : parts) {
            if (p.isEmpty() || p.length() > 3 || !p.chars().allMatch(Character::isDigit)) {
                throw new IllegalArgumentException("not an IPv4 address: " + dotted);
            }
            int octet = Integer.parseInt(p);
            if (octet > 255) {
                throw new IllegalArgumentException("not an IPv4 address: " + dotted);
            }
            value = (value << 8) | octet;
        }
        return value;
    }

    public static String text(int address) {
        return (address >>> 24) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "." + (address & 0xff);
    }

    static int mask(int prefix) {
        return prefix == 0 ? 0 : -1 << (32 - prefix);
    }

    /** How many addresses the network holds (as a long: a /0 holds 2^32). */
    public long size() {
        return 1L << (32 - prefix);
    }

    /** The network's last address. */
    public int last() {
        return base + (int) (size() - 1);
    }

    /** Whether the two networks share any address (one holds the other, or they are the same). */
    public boolean overlaps(Cidr other) {
        int shorter = Math.min(prefix, other.prefix);
        return (base & mask(shorter)) == (other.base & mask(shorter));
    }

    /** Whether {@code other} lies wholly inside this network. */
    public boolean contains(Cidr other) {
        return other.prefix >= prefix && (other.base & mask(prefix)) == base;
    }

    /** The address {@code offset} places after the base (offset 1: a bridge's gateway). */
    public String addressAt(int offset) {
        return text(base + offset);
    }

    @Override
    public String toString() {
        return text(base) + "/" + prefix;
    }
}
