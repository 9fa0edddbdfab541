/* process_helpers.c: small facts a native image asks its C library for: the environment, the
 * thread id and a thread's user time, the local time zone's name; and the instruction cache flush,
 * which x86-64 does not need. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

char **getEnviron(void) {
  return environ;
}

int getThreadId(void) {
  return (int)syscall(SYS_gettid);
}

/* A thread's user time in nanoseconds, from /proc (field 14 of its stat line), or -1. */
long getThreadUserTimeSlow(int tid) {
  char path[64], line[1024];
  snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  size_t n = fread(line, 1, sizeof line - 1, f);
  fclose(f);
  line[n] = '\0';
  char *s = strrchr(line, ')');
  if (s == NULL) return -1;
  unsigned long utime;
  /* after the command: state (3), then fields 4..13, then utime (14) */
  if (sscanf(s + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu", &utime) != 1) return -1;
  long ticks = sysconf(_SC_CLK_TCK);
  return (long)(utime * (1000000000L / ticks));
}

void codeSynchronization_clearCache(long start, long length) {
  (void)start; (void)length;
}

static char *zone_from_path(const char *path) {
  const char *z = strstr(path, "zoneinfo/");
  return z ? strdup(z + strlen("zoneinfo/")) : NULL;
}

/* The local time zone's id (malloc'd), from TZ, /etc/timezone or the /etc/localtime link, or
 * NULL when none says (the image then uses GMT). */
char *SVM_FindJavaTZmd(const char *java_home, int length) {
  (void)java_home; (void)length;
  const char *tz = getenv("TZ");
  if (tz != NULL && *tz != '\0') {
    if (*tz == ':') tz++;
    if (*tz == '/') return zone_from_path(tz);
    return strdup(tz);
  }
  FILE *f = fopen("/etc/timezone", "r");
  if (f != NULL) {
    char line[256];
    char *got = fgets(line, sizeof line, f);
    fclose(f);
    if (got != NULL) {
      line[strcspn(line, " \t\r\n")] = '\0';
      if (*line) return strdup(line);
    }
  }
  char target[4096];
  ssize_t n = readlink("/etc/localtime", target, sizeof target - 1);
  if (n > 0) {
    target[n] = '\0';
    return zone_from_path(target);
  }
  return NULL;
}
