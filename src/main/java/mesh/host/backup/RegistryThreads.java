package mesh.host.backup;

import java.util.concurrent.ThreadFactory;

/**
 * RegistryThreads makes the threads a backup or a restore talks to the registry on: platform daemon threads, never
 * virtual ones. In the native executable a virtual thread's blocking socket read can miss its wake-up and wait until
 * its timeout (the registry client's read timeout, a minute) or for ever (oracle/graal#13787, open): a first backup of
 * 4 bytes sat in its copy for two minutes natively (MovedCopyIT), as an operator's native backup once froze at 0 B/s
 * for a minute at a time. A platform thread's read is woken by the kernel itself. What that costs: an interrupt no
 * longer ends a read blocked on the socket; closing the stream does, and a read whose data flows ends by itself.
 */
public final class RegistryThreads {

    private RegistryThreads() {
    }

    /** Threads named {@code prefix} and a number from 0. */
    public static ThreadFactory named(String prefix) {
        return Thread.ofPlatform().daemon(true).name(prefix, 0).factory();
    }

    /** One thread named {@code name} running {@code work}, not started. */
    public static Thread unstarted(String name, Runnable work) {
        return Thread.ofPlatform().daemon(true).name(name).unstarted(work);
    }

    /** One thread named {@code name} running {@code work}, started. */
    public static Thread start(String name, Runnable work) {
        Thread t = unstarted(name, work);
        t.start();
        return t;
    }
}
