package mesh.install;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import mesh.plan.Preflight;

/**
 * MachineFacts gathers, without changing anything, what {@link Preflight} judges: the engine's API
 * version, which ports are taken on the address, whether the state dir can be written, and this
 * machine's IPv4 addresses; and the default address (that of the default route's interface).
 */
public final class MachineFacts {

    private MachineFacts() {
    }

    public static Preflight.Facts gather(String engine, String address, Path stateDir, List<Integer> ports) {
        String api = null;
        String engineError = null;
        try (mesh.docker.DockerEngine docker = new mesh.docker.DockerEngine(engine)) {
            api = docker.apiVersion();
        } catch (RuntimeException e) {
            engineError = e.getMessage() == null ? "no answer" : e.getMessage().lines().findFirst().orElse("");
        }
        List<Integer> busy = new ArrayList<>();
        if (address != null && mesh.model.DeclarationCheck.isIpv4(address)) {
            for (int port : ports) {
                if (!free(address, port)) {
                    busy.add(port);
                }
            }
        }
        return new Preflight.Facts(engine, api, engineError, busy, stateDir.toString(), writable(stateDir), address,
                addresses());
    }

    private static boolean free(String address, int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(InetAddress.getByName(address), port));
            return true;
        } catch (IOException e) {
            // an address not of this machine fails too; Preflight names that on its own
            return !addresses().contains(address);
        }
    }

    /** Null when a file can be made in the state dir (made if missing), else why not. Leaves nothing behind. */
    private static String writable(Path dir) {
        try {
            Path existing = dir;
            while (existing != null && !Files.exists(existing)) {
                existing = existing.getParent();
            }
            if (existing == null || !Files.isDirectory(existing)) {
                return "no folder to make it in";
            }
            if (!Files.isWritable(existing)) {
                return existing + " is not writable";
            }
            if (Files.isDirectory(dir)) {
                Path probe = Files.createTempFile(dir, ".preflight", "");
                Files.delete(probe);
            }
            return null;
        } catch (IOException e) {
            return e.getMessage();
        }
    }

    /** This machine's IPv4 addresses, loopback included. */
    public static List<String> addresses() {
        List<String> all = new ArrayList<>();
        try {
            for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                    if (a instanceof Inet4Address) {
                        all.add(a.getHostAddress());
                    }
                }
            }
        } catch (IOException e) {
            return List.of();
        }
        return all;
    }

    /**
     * The address of the interface the default route leaves by ({@code /proc/net/route}: the line
     * whose destination is 00000000), or null. Read by hand: the JDK has no routing table.
     */
    public static String defaultAddress() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/net/route")).stream().skip(1).toList()) {
                String[] f = line.trim().split("\\s+");
                if (f.length > 1 && f[1].equals("00000000")) {
                    NetworkInterface nic = NetworkInterface.getByName(f[0]);
                    if (nic != null) {
                        for (InetAddress a : Collections.list(nic.getInetAddresses())) {
                            if (a instanceof Inet4Address) {
                                return a.getHostAddress();
                            }
                        }
                    }
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }
}
