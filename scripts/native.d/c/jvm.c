/* jvm.c: the JVM_* functions that the JDK's own native libraries (libjava.a, libnio.a, …) call
 * into the VM, for a native image that has no HotSpot behind them. Each does what the image
 * itself can answer from the operating system; the management interface is absent (NULL), so
 * the JDK's libmanagement reports it as not supported. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sched.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>
#include <jni.h>

void initialize(void) {
}

jint JVM_ActiveProcessorCount(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (jint)n;
}

jlong JVM_CurrentTimeMillis(JNIEnv *env, jclass ignored) {
  struct timeval t;
  gettimeofday(&t, NULL);
  return (jlong)t.tv_sec * 1000 + t.tv_usec / 1000;
}

jlong JVM_NanoTime(JNIEnv *env, jclass ignored) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (jlong)t.tv_sec * 1000000000L + t.tv_nsec;
}

void *JVM_RegisterSignal(jint sig, void *handler) {
  struct sigaction now, before;
  memset(&now, 0, sizeof now);
  now.sa_handler = (void (*)(int))handler;
  sigemptyset(&now.sa_mask);
  if (sigaction(sig, &now, &before) != 0) return (void *)-1;
  return (void *)before.sa_handler;
}

jboolean JVM_RaiseSignal(jint sig) {
  return raise(sig) == 0;
}

jint JVM_FindSignal(const char *name) {
  static const struct { const char *name; int sig; } signals[] = {
    {"HUP", SIGHUP}, {"INT", SIGINT}, {"QUIT", SIGQUIT}, {"ILL", SIGILL}, {"TRAP", SIGTRAP},
    {"ABRT", SIGABRT}, {"BUS", SIGBUS}, {"FPE", SIGFPE}, {"KILL", SIGKILL}, {"USR1", SIGUSR1},
    {"SEGV", SIGSEGV}, {"USR2", SIGUSR2}, {"PIPE", SIGPIPE}, {"ALRM", SIGALRM}, {"TERM", SIGTERM},
    {"CHLD", SIGCHLD}, {"CONT", SIGCONT}, {"STOP", SIGSTOP}, {"TSTP", SIGTSTP}, {"TTIN", SIGTTIN},
    {"TTOU", SIGTTOU}, {"URG", SIGURG}, {"XCPU", SIGXCPU}, {"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM},
    {"PROF", SIGPROF}, {"WINCH", SIGWINCH}, {"IO", SIGIO}, {"PWR", SIGPWR}, {"SYS", SIGSYS},
  };
  for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
    if (strcmp(name, signals[i].name) == 0) return signals[i].sig;
  }
  return -1;
}

void *JVM_GetManagement(jint version) {
  return NULL;
}

jint JVM_GetInterfaceVersion(void) {
  return 6;
}

char *JVM_NativePath(char *path) {
  return path;
}

jint JVM_IHashCode(JNIEnv *env, jobject o) {
  return (jint)(((jlong)(intptr_t)o) >> 3);
}

jint JVM_GetLastErrorString(char *buf, int len) {
  if (errno == 0 || len <= 0) return 0;
  const char *s = strerror(errno);
  size_t n = strlen(s);
  if (n >= (size_t)len) n = (size_t)len - 1;
  memcpy(buf, s, n);
  buf[n] = '\0';
  return (jint)n;
}

void *JVM_FindLibraryEntry(void *handle, const char *name) {
  return dlsym(handle, name);
}

void *JVM_LoadZipLibrary(void) {
  return RTLD_DEFAULT;
}

jboolean JVM_IsSupportedJNIVersion(jint version) {
  return version == JNI_VERSION_1_1 || version == JNI_VERSION_1_2 || version == JNI_VERSION_1_4
      || version == JNI_VERSION_1_6 || version == JNI_VERSION_1_8 || version == JNI_VERSION_9
      || version == JNI_VERSION_10 || version == JNI_VERSION_19 || version == JNI_VERSION_20
      || version == JNI_VERSION_21 || version == JNI_VERSION_24;
}

void JVM_Halt(jint code) {
  _exit(code);
}

/* The JDK's zip and net code guard their tables with the VM's raw monitors: recursive mutexes. */
void *JVM_RawMonitorCreate(void) {
  pthread_mutex_t *m = malloc(sizeof *m);
  if (m == NULL) return NULL;
  pthread_mutexattr_t attr;
  pthread_mutexattr_init(&attr);
  pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
  pthread_mutex_init(m, &attr);
  pthread_mutexattr_destroy(&attr);
  return m;
}

void JVM_RawMonitorDestroy(void *monitor) {
  pthread_mutex_destroy(monitor);
  free(monitor);
}

jint JVM_RawMonitorEnter(void *monitor) {
  return pthread_mutex_lock(monitor);
}

void JVM_RawMonitorExit(void *monitor) {
  pthread_mutex_unlock(monitor);
}

void JVM_BeforeHalt(void) {
}

int jio_vsnprintf(char *buf, size_t count, const char *fmt, va_list args) {
  if ((intptr_t)count <= 0) return -1;
  int result = vsnprintf(buf, count, fmt, args);
  if (result < 0 || (size_t)result >= count) {
    buf[count - 1] = '\0';
    return -1;
  }
  return result;
}

int jio_snprintf(char *buf, size_t count, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = jio_vsnprintf(buf, count, fmt, args);
  va_end(args);
  return result;
}

int jio_vfprintf(FILE *f, const char *fmt, va_list args) {
  return vfprintf(f, fmt, args);
}

int jio_fprintf(FILE *f, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  int result = vfprintf(f, fmt, args);
  va_end(args);
  return result;
}
