package mesh.controller;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import mesh.model.DrainModuleState;
import mesh.model.DrainStep;
import mesh.model.Manifest;
import mesh.model.Node;
import mesh.model.Placement;
import mesh.model.Poll;
import mesh.model.TakeStep;
import mesh.plan.Drain;
import mesh.plan.Drain.Item;
import mesh.plan.DrainPlacement;
import mesh.plan.DrainPlan;
import mesh.plan.Operation;
import mesh.plan.Take;
import mesh.plan.TakeStart;
import mesh.store.MeshStore;
import mesh.store.NodeCordons;
import mesh.store.TakeRecords;

/**
 * DrainSteps are the drain's step handlers (docs/drain.md): cordon the node, place its modules by the pure
 * {@link DrainPlacement} over what the store and the agents say (each module's data on the node, each target's free
 * room and published ports), and move a batch of K modules, each by a take run to its end on the take's runner
 * ({@link MeshTake#runToEnd}) in a thread of its own. A module's downtime is looked at on its take's record every
 * {@link #LOOK}: from the first look at its fence step to the first look past its push.
 */
final class DrainSteps {

    static final Duration LOOK = Duration.ofMillis(200);

    private final MeshStore store;
    private final MeshTake takes;
    private final TakeAgents calls;
    private final Poll.Clock clock;

    DrainSteps(MeshStore store, MeshTake takes, AgentClient agents, Poll.Clock clock) {
        this.store = store;
        this.takes = takes;
        this.calls = new TakeAgents(agents);
        this.clock = clock;
    }

    Map<Enum<?>, OperationRunner.Step<Drain, String>> handlers() {
        return Map.of(DrainStep.CORDON, (d, p) -> cordon(d), DrainStep.PLACE, (d, p) -> new DrainPlan.Placed(place(d)),
                DrainStep.MOVE, this::move);
    }

    private Operation.Outcome cordon(Drain d) {
        store.inTransaction(c -> NodeCordons.set(c, d.node(), true));
        return new Operation.Done();
    }

    /** Every module that runs on the drained node, placed or left with why. */
    List<Item> place(Drain d) {
        record Read(List<Node> nodes, List<Manifest> catalogue, List<Placement> placements, Set<String> cordoned) {
        }
        Read r = store.inTransaction(c -> new Read(store.nodes(c), store.catalogue(c), store.placements(c), NodeCordons.cordoned(c)));
        Node drained = r.nodes().stream().filter(n -> n.name().equals(d.node())).findFirst()
                .orElseThrow(() -> new mesh.model.NotFound("node " + d.node() + " is no longer in the mesh"));
        List<DrainPlacement.Module> modules = new ArrayList<>();
        for (Placement p : r.placements()) {
            Optional<Manifest> m = r.catalogue().stream().filter(x -> x.module().equals(p.module())).findFirst();
            if (d.node().equals(p.taken()) && m.isPresent()) {
                modules.add(new DrainPlacement.Module(p.module(), bytes(drained, m.get()), ports(m.get())));
            }
        }
        List<DrainPlacement.Target> targets = new ArrayList<>();
        for (Node n : r.nodes()) {
            Set<Integer> used = new HashSet<>();
            r.placements().stream().filter(p -> n.name().equals(p.taken())).forEach(p -> r.catalogue().stream()
                    .filter(m -> m.module().equals(p.module())).findFirst().ifPresent(m -> used.addAll(ports(m))));
            boolean self = n.name().equals(d.node());
            targets.add(new DrainPlacement.Target(n.name(), r.cordoned().contains(n.name()), self ? 0 : free(n), used));
        }
        DrainPlacement.Result plan = DrainPlacement.place(d.node(), modules, targets, d.targets());
        List<Item> items = new ArrayList<>();
        plan.placed().forEach(p -> items.add(new Item(p.module(), DrainModuleState.PENDING, p.target(), null, null)));
        plan.left().forEach(l -> items.add(new Item(l.module(), DrainModuleState.LEFT, null, l.why(), null)));
        return items;
    }

    private long bytes(Node node, Manifest m) {
        long total = 0;
        for (String kind : TakeStart.volumes(m).stream().map(Take.Volume::kind).distinct().toList()) {
            total += calls.volumes(node, m.module(), kind).stream().mapToLong(mesh.wire.VolumeView::bytes).sum();
        }
        return total;
    }

    /** A target's free bytes where a copy lands; not known (-1) when its agent does not answer: its take's preflight checks. */
    private long free(Node n) {
        try {
            mesh.wire.DiskView disk = calls.disk(n);
            return disk == null ? -1 : disk.free();
        } catch (RuntimeException e) {
            return -1;
        }
    }

    static Set<Integer> ports(Manifest m) {
        Set<Integer> ports = new HashSet<>();
        m.components().values().forEach(c -> ports.addAll(c.ports()));
        return ports;
    }

    /** Moves the next batch, each module by its take in a thread of its own, and says what became of each. */
    private Operation.Outcome move(Drain d, java.util.function.Consumer<String> progress) {
        if (DrainPlan.late(d, Instant.now())) {
            return new DrainPlan.Moved(List.of(), true);
        }
        List<Item> batch = DrainPlan.batch(d);
        List<AtomicReference<Item>> found = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (Item i : batch) {
            AtomicReference<Item> result = new AtomicReference<>(i);
            found.add(result);
            // platform threads, as the runner's loops: a take's loop reads the store with no deadline, and natively a virtual
            // thread's socket read can miss its wake-up (oracle/graal#13787; BackupWatch says more)
            threads.add(Thread.ofPlatform().daemon(true).name("drain-" + d.node() + "-" + i.module()).start(() -> result.set(moveOne(i))));
        }
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                threads.forEach(Thread::interrupt);
                Thread.currentThread().interrupt();
                break;
            }
        }
        return new DrainPlan.Moved(found.stream().map(AtomicReference::get).toList(), DrainPlan.late(d, Instant.now()));
    }

    /** One module's take to its end: moved with its downtime, or failed with the take's reason. */
    Item moveOne(Item i) {
        Downtime watch = new Downtime(i.module());
        Thread looker = Thread.ofPlatform().daemon(true).name("drain-look-" + i.module()).start(watch);
        try {
            if (alreadyThere(i)) {
                return i.with(DrainModuleState.MOVED, null, null);
            }
            Take t = takes.runToEnd(i.target(), i.module(), clock);
            watch.look();
            if (t.step() == TakeStep.DONE && i.target().equals(t.to())) {
                return i.with(DrainModuleState.MOVED, null, watch.millis());
            }
            return i.with(DrainModuleState.FAILED, t.step().ended() ? "its take " + t.step() + ": " + t.error()
                    : "its take waits at step " + t.step() + ": " + t.problem() + "; 'mesh take " + i.target() + " "
                    + i.module() + "' carries it on", null);
        } catch (RuntimeException e) {
            return alreadyThere(i) ? i.with(DrainModuleState.MOVED, null, null)
                    : i.with(DrainModuleState.FAILED, OperationRunner.failure(e).words(), null);
        } finally {
            looker.interrupt();
        }
    }

    /** Whether the module already runs on its target (a take a killed controller ended before the drain recorded it). */
    private boolean alreadyThere(Item i) {
        return store.inTransaction(c -> store.placements(c).stream().anyMatch(p -> p.module().equals(i.module())
                && i.target().equals(p.taken())) && TakeRecords.running(c, i.module()).isEmpty());
    }

    /** Downtime looks at a module's running take every {@link #LOOK}: down from its fence step to past its push. */
    private final class Downtime implements Runnable {

        private final String module;
        private Long down;
        private Long up;

        Downtime(String module) {
            this.module = module;
        }

        @Override
        public void run() {
            try {
                while (!Thread.currentThread().isInterrupted()) {
                    look();
                    Poll.pauseInterruptibly(LOOK);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                // a look that failed says nothing: the next one may
            }
        }

        synchronized void look() {
            Optional<Take> t = store.inTransaction(c -> TakeRecords.running(c, module));
            long now = clock.nanoTime();
            if (t.isPresent() && t.get().step().ordinal() >= TakeStep.FENCE.ordinal() && t.get().step().ordinal() <= TakeStep.PUSH.ordinal()) {
                down = down == null ? now : down;
            } else if (down != null && up == null) {
                up = now;
            }
        }

        synchronized Long millis() {
            return down == null ? null : Duration.ofNanos((up == null ? clock.nanoTime() : up) - down).toMillis();
        }
    }
}
