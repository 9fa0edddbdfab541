# scripts/bench/lib/take-breakdown.awk — a take's downtime split in its steps (scripts/bench/take-downtime).
# Files: the prober's ticks ("<time> <0|1>"), the controller's log, the agents' logs. Variables: day (the logs' date), module.
function epoch(hms,   c, t) { if (hms == "") return 0; c = "date -u -d \"" day " " hms "\" +%s.%N"; c | getline t; close(c); return t }
# the first time of kind k at or after the last answer (the logs' lines are HH:MM:SS.mmm on this machine's clock)
function first(k,   i, t, best) { best = 0; for (i = 1; i <= n[k]; i++) { t = epoch(when[k, i]); if (t >= down - 0.001 && (best == 0 || t < best)) best = t } return best }
function rel(t) { return t == 0 ? "?" : sprintf("%.2f", t - down) }
function keep(k) { n[k]++; when[k, n[k]] = $1 }
FNR == NR { if ($2 == 1) { if (last != "" && $1 - last > worst) { worst = $1 - last; down = last; up = $1 } last = $1 } next }
index($0, "take " module ": ") { step = $5; sub(/:$/, "", step); if (step == "ticket" || step == "verify" || step == "start") keep(step); next }
$0 ~ ("fenced module " module " at epoch [0-9]+; stopped") { keep("fenced") }
/ranges of .* under the fence/ { keep("ranged") }
$0 ~ ("copy of volume data of module " module " from") { keep("copied") }
/written to disk \(syncfs\)/ { keep("synced") }
$0 ~ ("(started|created) " module "[.][^ ]+ [(]" module "[)]") { keep("started") }
END {
  tk = first("ticket"); vf = first("verify"); st = first("start")
  printf "  down %.2f s = the stop at the fence %.2f + the delta %.2f + the verify %.2f + the start to the first answer %.2f\n", up - down, tk - down, vf - tk, st - vf, up - st
  printf "  s after the last answer: fence answered %s, ticket step %s, ranges hashed (source) %s, first syncfs done %s, copy of data done (target) %s, verify step %s, start step %s, container started (target) %s, first answer %.2f\n", rel(first("fenced")), rel(tk), rel(first("ranged")), rel(first("synced")), rel(first("copied")), rel(vf), rel(st), rel(first("started")), up - down
}
