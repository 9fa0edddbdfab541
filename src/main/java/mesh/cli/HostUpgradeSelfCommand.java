package mesh.cli;

import java.util.concurrent.Callable;
import mesh.install.InstallFailure;
import mesh.install.UpgradeSelf;
import picocli.CommandLine.Command;

/**
 * HostUpgradeSelfCommand is {@code mesh host upgrade-self}: the process {@code mesh upgrade} runs on a node, from the
 * new build's bundle, to move that node's agent to it ({@link UpgradeSelf}). It is not an operator's verb: it stays
 * running once the agent moved (a supervised process that ended would be started again) until {@code mesh upgrade}
 * removes it; a failure exits 1 with why, which {@code mesh upgrade} reports.
 */
@Command(name = "upgrade-self",
        mixinStandardHelpOptions = true,
        description = {"Move this node's agent to the build this runs from.", "It is run by 'mesh upgrade' as a process of its one-off "
                    + "module mesh-upgrade-NODE, from the new build's bundle; it is not an operator's verb.",
            "Puts the new build beside the old in the state folder mesh install made (app.next, then app and "
                    + "app.previous), restarts the agent (systemd, else the detached agent), and waits: containers and "
                    + "processes are adopted by the new agent, none replaced. If the new agent does not listen within 90 s the "
                    + "old build is put back and started again. Exit 1 with why when it failed; it never exits once the agent runs this build."},
        footerHeading = "%nExamples:%n",
        footer = {"  mesh upgrade",
            "      runs it on every node; not run by hand"})
public class HostUpgradeSelfCommand implements Callable<Integer> {

    @Override
    public Integer call() throws InterruptedException {
        boolean moved;
        try {
            moved = new UpgradeSelf(ConfigFile::read, line -> System.out.println("mesh host upgrade-self: " + line)).run();
        } catch (InstallFailure e) {
            System.out.println("mesh host upgrade-self: failed: " + e.getMessage());
            System.err.println("mesh: " + e.getMessage());
            return ExitCodes.FAILED;
        }
        if (!moved) {
            return ExitCodes.FAILED;
        }
        System.out.println("mesh host upgrade-self: done; waiting to be removed");
        new java.util.concurrent.CountDownLatch(1).await();   // until mesh upgrade removes this process (TERM)
        return ExitCodes.OK;
    }
}
