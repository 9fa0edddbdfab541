package mesh.controller;

import mesh.model.Conflict;

/**
 * TakeStarting is a push refused because a take (or a restore) is starting its module on its target
 * ({@link mesh.plan.PushDecision#whileATakeStarts}): a conflict to an operator, as before, and what another take's own
 * push waits out ({@link TakeSteps}) as it waits out another push's lock, so that takes run side by side (a drain's
 * batch) do not give up their push while one of them starts.
 */
final class TakeStarting extends Conflict {
    TakeStarting(String why) {
        super(why);
    }
}
