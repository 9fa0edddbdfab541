package mesh.host.process;

import mesh.model.ProcessState;

/**
 * ProcessStatus is the view of one supervised component for the operator and the agent's status:
 * {@code state} is running, restarting (ended, the next start is due at {@code nextStartAt}), failed (it
 * could not be launched: {@code error} says why; retried like a restart) or exited (stopped on purpose, not
 * restarted until applied again). A recorded pid that now belongs to another process reads as ended.
 */
public record ProcessStatus(
        String component,
        String module,
        ProcessState state,
        long pid,
        String startedAt,
        long startTime,
        int restarts,
        String lastExit,
        String lastExitAt,
        String nextStartAt,
        String error) {

    static ProcessStatus of(ProcessRecord r, Identity.Verdict verdict) {
        ProcessState state;
        if (verdict == Identity.Verdict.ADOPT) {
            state = ProcessState.RUNNING;
        } else if (r.stopped()) {
            state = ProcessState.EXITED;
        } else if (r.launchError() != null) {
            state = ProcessState.FAILED;
        } else {
            state = ProcessState.RESTARTING;
        }
        boolean running = verdict == Identity.Verdict.ADOPT;
        ExitStatus exit = r.lastExit();
        return new ProcessStatus(r.component(), r.spec().module(), state, running ? r.pid() : 0, r.startedAt(),
                running ? r.startTime() : 0, r.restarts(), exit == null ? null : exit.describe(),
                exit == null ? null : exit.at(), running ? null : r.nextStartAt(), r.launchError());
    }
}
