package mesh.host;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InterfaceAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import mesh.model.Cidr;
import mesh.plan.NetworkRange.HostNet;

/**
 * HostNetworks reads the node's own IPv4 networks, in the namespace of the process that asks: every
 * interface address with its prefix (the JDK's view) and every route of {@code /proc/net/route}. They are
 * what {@link mesh.plan.NetworkRange} keeps the module networks away from. The thin edge: what it reads
 * is judged elsewhere.
 */
public final class HostNetworks {

    static final String ROUTES = "/proc/net/route";

    private HostNetworks() {
    }

    /** The node's addresses and routes now; a source that cannot be read gives nothing rather than failing the agent. */
    public static List<HostNet> read() {
        List<HostNet> all = new ArrayList<>(addresses());
        try {
            all.addAll(routes(Files.readString(Path.of(ROUTES))));
        } catch (IOException | RuntimeException unreadable) {
            // not Linux, or no /proc: the addresses alone
        }
        return all;
    }

    static List<HostNet> addresses() {
        List<HostNet> found = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InterfaceAddress a : nic.getInterfaceAddresses()) {
                    if (a.getAddress() instanceof Inet4Address v4 && a.getNetworkPrefixLength() >= 0
                            && a.getNetworkPrefixLength() <= 32) {
                        found.add(HostNet.address(nic.getName(), v4.getHostAddress(), a.getNetworkPrefixLength()));
                    }
                }
            }
        } catch (SocketException unreadable) {
            // no interfaces to read: the routes alone
        }
        return found;
    }

    /**
     * The routes of a {@code /proc/net/route} text: one per line after the header, destination and mask
     * as little-endian hex. A line that does not read is skipped.
     */
    static List<HostNet> routes(String procNetRoute) {
        List<HostNet> routes = new ArrayList<>();
        procNetRoute.lines().skip(1).forEach(line -> {
            String[] f = line.trim().split("\\s+");
            if (f.length < 8) {
                return;
            }
            try {
                int destination = Integer.reverseBytes(Integer.parseUnsignedInt(f[1], 16));
                int mask = Integer.reverseBytes(Integer.parseUnsignedInt(f[7], 16));
                routes.add(HostNet.route(f[0], Cidr.enclosing(destination, Integer.bitCount(mask))));
            } catch (NumberFormatException unreadable) {
                // not a route line
            }
        });
        return routes;
    }
}
