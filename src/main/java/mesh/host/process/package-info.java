/**
 * Supervision of the components of process form ({@code bundle:}): the mesh's controller is one.
 *
 * <pre>
 *  decide (pure)                       act (edge)
 *  ───────────────────────────────     ─────────────────────────────────────────────
 *  ProcessSpec   what should run        ProcessSupervisor  reads, decides, acts, records
 *  Identity      record + /proc →       ProcessHost        /proc, launch, signals
 *                ADOPT|GONE|FOREIGN       └ LinuxProcessHost
 *  Supervision   KEEP|REPLACE|START|    ProcessRecords     one durable record per component
 *                WAIT, backoff          LogFiles           rotated log, last lines, follow
 *  LaunchCommand the exact command line
 * </pre>
 */
package mesh.host.process;
