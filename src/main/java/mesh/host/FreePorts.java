package mesh.host;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * FreePorts picks, for a cutover's new copy, a host port for each container port that nothing listens on now on the
 * node's address: the system's choice of a free port, asked by binding port 0 there and letting it go at once. The
 * engine's create fails if another took it meanwhile, and the cutover stops with the old copy serving.
 */
final class FreePorts {

    private FreePorts() {
    }

    static Map<Integer, Integer> pick(String address, List<Integer> ports) {
        Map<Integer, Integer> picked = new LinkedHashMap<>();
        for (int port : ports) {
            picked.put(port, free(address));
        }
        return picked;
    }

    private static int free(String address) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(address == null ? null : InetAddress.getByName(address), 0));
            return s.getLocalPort();
        } catch (IOException e) {
            try (ServerSocket any = new ServerSocket(0)) {   // the address is not this namespace's: any free port
                return any.getLocalPort();
            } catch (IOException none) {
                throw new IllegalStateException("no free port for the new copy: " + none.getMessage(), none);
            }
        }
    }
}
