package mesh.plan;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * AlertRules decides the mesh's alerts from what the controller observed: which conditions hold now
 * ({@link #conditions}), and, from those and the alerts as they stood, which alerts start, fire, hold and
 * resolve ({@link #step}). A condition must hold for its kind's {@link Kind#forTime} before its alert fires,
 * and be gone for {@link #CLEAR_HOLD} before a firing alert resolves, so a flapping condition is one alert;
 * a resolution says how long the alert lasted. A node that is down holds its modules' alerts as they are:
 * no new one starts, none resolves (nothing is known of them), so a dead node is one alert. Pure: time comes
 * in; nothing here sends or stores. Not wired to the controller yet (docs/metrics.md, "Alerts").
 */
public final class AlertRules {

    /** How long a condition must be gone before its firing alert resolves. */
    public static final Duration CLEAR_HOLD = Duration.ofSeconds(30);
    /** A certificate that expires within this is alerted on. */
    public static final Duration CERTIFICATE_WARNING = Duration.ofDays(14);
    /** A place with less than this share of its disk free is alerted on. */
    public static final double DISK_FREE_SHARE = 0.10;

    /** What an alert is about, its Alertmanager name and how long its condition must hold before it fires. */
    public enum Kind {
        NODE_DOWN("MeshNodeDown", Duration.ofSeconds(30)),
        MODULE_UNHEALTHY("MeshModuleUnhealthy", Duration.ofMinutes(2)),
        MODULE_RESTART_LOOP("MeshModuleRestartLoop", Duration.ZERO),
        BACKUP_FAILED("MeshBackupFailed", Duration.ZERO),
        BACKUP_OVERDUE("MeshBackupOverdue", Duration.ofMinutes(10)),
        CERTIFICATE_EXPIRES("MeshCertificateExpiresSoon", Duration.ZERO),
        DISK_NEARLY_FULL("MeshDiskNearlyFull", Duration.ofMinutes(5)),
        TAKE_FAILED("MeshTakeFailed", Duration.ZERO),
        RESTORE_FAILED("MeshRestoreFailed", Duration.ZERO);

        public final String alertName;
        public final Duration forTime;

        Kind(String alertName, Duration forTime) {
            this.alertName = alertName;
            this.forTime = forTime;
        }
    }

    /** What the controller observed: each node, each module on an answering node, backups, certificates, disks, failures. */
    public record Observed(List<Node> nodes, List<Module> modules, List<Backup> backups, List<Certificate> certificates,
                           List<Disk> disks, List<String> failedTakes, List<String> failedRestores, Instant now) {
    }

    public record Node(String name, boolean up) {
    }

    /** A module on a node whose agent answered: healthy, or crash-looping (a restart loop), else unhealthy. */
    public record Module(String module, String node, boolean healthy, boolean crashLooping) {
    }

    /** A module's backups: the last one failed; its schedule (null: none) and when its last good one began (null: never). */
    public record Backup(String module, boolean lastFailed, Duration every, Instant lastGood) {
    }

    /** A certificate a server serves: whose ("controller", or a node's name) and when it expires. */
    public record Certificate(String whose, Instant notAfter) {
    }

    public record Disk(String node, String place, long free, long size) {
    }

    /** A condition that holds now: its kind, what it is about ({@code subject}: a node, a module on a node, …), its node. */
    public record Condition(Kind kind, String subject, String node, String detail) {
    }

    /** An alert: pending ({@code firedAt} null) or firing; {@code clearSince} set while its condition is gone. */
    public record Alert(Kind kind, String subject, String node, String detail, Instant since, Instant firedAt,
                        Instant clearSince) {

        public boolean firing() {
            return firedAt != null;
        }

        String key() {
            return kind + " " + subject;
        }
    }

    /**
     * What a step changed: an alert fired, or resolved after lasting {@code lasted}: from the first look that saw its
     * condition to the first that did not.
     */
    public record Change(Alert alert, boolean fired, Instant at, Duration lasted) {
    }

    /** The alerts after a step (pending and firing) and what changed. */
    public record Step(List<Alert> alerts, List<Change> changes) {
    }

    private AlertRules() {
    }

    /** The conditions that hold in {@code o}. */
    public static List<Condition> conditions(Observed o) {
        List<Condition> out = new ArrayList<>();
        o.nodes().stream().filter(n -> !n.up()).forEach(n -> out.add(new Condition(Kind.NODE_DOWN, n.name(), n.name(),
                "node " + n.name() + "'s agent does not answer")));
        for (Module m : o.modules()) {
            String subject = m.module() + "@" + m.node();
            if (m.crashLooping()) {
                out.add(new Condition(Kind.MODULE_RESTART_LOOP, subject, m.node(), "module " + m.module()
                        + " restarts in a loop on " + m.node()));
            } else if (!m.healthy()) {
                out.add(new Condition(Kind.MODULE_UNHEALTHY, subject, m.node(), "module " + m.module()
                        + " is not healthy on " + m.node()));
            }
        }
        for (Backup b : o.backups()) {
            if (b.lastFailed()) {
                out.add(new Condition(Kind.BACKUP_FAILED, b.module(), null, "the last backup of module " + b.module()
                        + " failed"));
            }
            if (b.every() != null && (b.lastGood() == null || b.lastGood().plus(b.every().multipliedBy(2)).isBefore(o.now()))) {
                out.add(new Condition(Kind.BACKUP_OVERDUE, b.module(), null, "module " + b.module()
                        + " has had no good backup for twice its schedule"));
            }
        }
        o.certificates().stream().filter(c -> c.notAfter().isBefore(o.now().plus(CERTIFICATE_WARNING))).forEach(c -> out.add(
                new Condition(Kind.CERTIFICATE_EXPIRES, c.whose(), "controller".equals(c.whose()) ? null : c.whose(),
                        "the certificate of " + c.whose() + " expires at " + c.notAfter())));
        o.disks().stream().filter(d -> d.size() > 0 && d.free() < d.size() * DISK_FREE_SHARE).forEach(d -> out.add(
                new Condition(Kind.DISK_NEARLY_FULL, d.node() + ":" + d.place(), d.node(), "node " + d.node() + ": "
                        + d.free() * 100 / d.size() + " % free in its " + d.place() + " place")));
        o.failedTakes().forEach(m -> out.add(new Condition(Kind.TAKE_FAILED, m, null, "the take of module " + m + " failed")));
        o.failedRestores().forEach(m -> out.add(new Condition(Kind.RESTORE_FAILED, m, null, "the restore of module " + m
                + " failed")));
        return out;
    }

    /** The alerts after {@code conditions} were seen at {@code now}, from the alerts as they stood {@code before}. */
    public static Step step(List<Alert> before, List<Condition> conditions, Instant now) {
        Set<String> down = conditions.stream().filter(c -> c.kind() == Kind.NODE_DOWN).map(Condition::node)
                .collect(Collectors.toSet());
        Map<String, Alert> was = new LinkedHashMap<>();
        before.forEach(a -> was.put(a.key(), a));
        Map<String, Condition> holds = new LinkedHashMap<>();
        conditions.stream().filter(c -> c.kind() == Kind.NODE_DOWN || c.node() == null || !down.contains(c.node()))
                .forEach(c -> holds.put(c.kind() + " " + c.subject(), c));
        List<Alert> after = new ArrayList<>();
        List<Change> changes = new ArrayList<>();
        for (Alert a : was.values()) {
            Condition c = holds.remove(a.key());
            if (a.kind() != Kind.NODE_DOWN && a.node() != null && down.contains(a.node())) {
                after.add(a); // its node is down: held as it is, neither fired nor resolved
            } else if (c != null) {
                Alert held = new Alert(a.kind(), a.subject(), a.node(), c.detail(), a.since(), a.firedAt(), null);
                after.add(fireIfDue(held, now, changes));
            } else if (!a.firing()) {
                continue; // pending and gone: it never fired, so nothing resolves
            } else if (a.clearSince() == null) {
                after.add(new Alert(a.kind(), a.subject(), a.node(), a.detail(), a.since(), a.firedAt(), now));
            } else if (!now.isBefore(a.clearSince().plus(CLEAR_HOLD))) {
                changes.add(new Change(a, false, a.clearSince(), Duration.between(a.since(), a.clearSince())));
            } else {
                after.add(a);
            }
        }
        for (Condition c : holds.values()) {
            after.add(fireIfDue(new Alert(c.kind(), c.subject(), c.node(), c.detail(), now, null, null), now, changes));
        }
        return new Step(after, changes);
    }

    private static Alert fireIfDue(Alert a, Instant now, List<Change> changes) {
        if (a.firing() || now.isBefore(a.since().plus(a.kind().forTime))) {
            return a;
        }
        Alert fired = new Alert(a.kind(), a.subject(), a.node(), a.detail(), a.since(), now, null);
        changes.add(new Change(fired, true, now, Duration.between(a.since(), now)));
        return fired;
    }
}
