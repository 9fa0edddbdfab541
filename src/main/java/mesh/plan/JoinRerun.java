package mesh.plan;

import java.util.Set;

/**
 * JoinRerun decides, purely, what {@code mesh install --join URL} without a join token means on this
 * machine. On a node that joined before (its state dir holds the agent's certificate and its journal
 * records the agent and join steps done) it is a rerun: it needs no token or CA hash, since it asks
 * the controller for nothing; the node's name and address are the ones its certificate holds, and a
 * {@code --node}, {@code --address} or {@code --ca-hash} given must agree with them. Anywhere else,
 * and whenever a token is given, it is a join as before, whose inputs {@link InstallInputs} judges
 * (without a token: refused).
 */
public final class JoinRerun {

    /**
     * Held is what the state dir holds: the install steps done, and, when its agent's certificate is
     * there, the node it certifies, that node's address and the hash of the mesh CA kept beside it
     * (each null when absent).
     */
    public record Held(Set<InstallStep> done, String node, String address, String caHash) {
    }

    /**
     * Verdict says whether this is a rerun of a finished join, with the node and address to use
     * (those given, else those held), or why it is refused (then nothing runs).
     */
    public record Verdict(boolean rerun, String node, String address, String refusal) {

        static Verdict notARerun(String node, String address) {
            return new Verdict(false, node, address, null);
        }
    }

    private JoinRerun() {
    }

    /** The verdict for the flags given ({@code null} when not given) and what {@code stateDir} holds. */
    public static Verdict decide(String join, String token, String node, String address, String caHash, Held held,
                                 String stateDir) {
        boolean joined = held.node() != null && held.done().contains(InstallStep.AGENT) && held.done().contains(InstallStep.JOIN);
        if (join == null || token != null || !joined) {
            return Verdict.notARerun(node, address);
        }
        String where = " (its certificate in " + stateDir + "/tls)";
        if (node != null && !node.equals(held.node())) {
            return refused("--node " + node + ": this machine joined the mesh as node " + held.node() + where
                    + "; rerun with --node " + held.node() + ", or 'mesh uninstall' first to join it as another node");
        }
        if (address != null && held.address() != null && !address.equals(held.address())) {
            return refused("--address " + address + ": node " + held.node() + " joined with address " + held.address() + where
                    + "; a node's address moves with 'mesh node set " + held.node() + " --address' and a new join line");
        }
        if (caHash != null && held.caHash() != null && !caHash.equals(held.caHash())) {
            return refused("--ca-hash " + caHash + ": node " + held.node() + " joined a mesh whose CA is " + held.caHash()
                    + " (" + stateDir + "/tls/ca.crt)");
        }
        return new Verdict(true, held.node(), address != null ? address : held.address(), null);
    }

    private static Verdict refused(String why) {
        return new Verdict(false, null, null, why);
    }
}
