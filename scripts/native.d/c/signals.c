/* signals.c: how a native image hears the signals Java code asked for (sun.misc.Signal): the C
 * handler counts the signal and wakes the dispatcher thread through a semaphore; the dispatcher
 * takes one pending signal at a time. */
#include <errno.h>
#include <semaphore.h>
#include <signal.h>
#include <stdatomic.h>

static sem_t wakeup;
static atomic_int pending[NSIG];

int cSunMiscSignal_open(void) {
  return sem_init(&wakeup, 0, 0) == 0 ? 0 : errno;
}

int cSunMiscSignal_close(void) {
  return sem_destroy(&wakeup) == 0 ? 0 : errno;
}

int cSunMiscSignal_awaitSemaphore(void) {
  while (sem_wait(&wakeup) != 0) {
    if (errno != EINTR) return errno;
  }
  return 0;
}

int cSunMiscSignal_signalSemaphore(void) {
  return sem_post(&wakeup) == 0 ? 0 : errno;
}

int cSunMiscSignal_signalRangeCheck(int sig) {
  return sig > 0 && sig < NSIG;
}

/* A pending signal's number (one fewer pending of it), or -1 when none is pending. */
int cSunMiscSignal_checkPendingSignal(void) {
  for (int sig = 1; sig < NSIG; sig++) {
    int n = atomic_load(&pending[sig]);
    while (n > 0) {
      if (atomic_compare_exchange_weak(&pending[sig], &n, n - 1)) return sig;
    }
  }
  return -1;
}

static void count_signal(int sig) {
  int saved = errno;
  if (sig > 0 && sig < NSIG) {
    atomic_fetch_add(&pending[sig], 1);
    sem_post(&wakeup);
  }
  errno = saved;
}

void *cSunMiscSignal_signalHandlerFunctionPointer(void) {
  return (void *)count_signal;
}
