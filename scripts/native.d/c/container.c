/* container.c: the cgroup limits a native image sizes its heap and thread pools by, read from
 * cgroup v2 (/sys/fs/cgroup plus the process's own group from /proc/self/cgroup). A process in a
 * group with no memory or CPU limit is "not containerized", as on a host under systemd with no
 * limits set. Values: bytes; -1 for no limit, -2 when the file is missing. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define VERSION 240100
#define NOT_CONTAINERIZED 0
#define CONTAINERIZED 1
#define TOO_OLD 2
#define TOO_NEW 3
#define UNLIMITED (-1L)
#define MISSING (-2L)

static char group[PATH_MAX] = "/sys/fs/cgroup";

static int read_line(const char *name, char *out, size_t size) {
  char path[PATH_MAX + 64];
  snprintf(path, sizeof path, "%s/%s", group, name);
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  char *got = fgets(out, (int)size, f);
  fclose(f);
  if (got == NULL) return -1;
  out[strcspn(out, "\n")] = '\0';
  return 0;
}

static long read_value(const char *name) {
  char line[128];
  if (read_line(name, line, sizeof line) != 0) return MISSING;
  if (strncmp(line, "max", 3) == 0) return UNLIMITED;
  return strtol(line, NULL, 10);
}

static long read_stat(const char *key) {
  char path[PATH_MAX + 64], k[64];
  long v;
  snprintf(path, sizeof path, "%s/memory.stat", group);
  FILE *f = fopen(path, "r");
  if (f == NULL) return MISSING;
  while (fscanf(f, "%63s %ld", k, &v) == 2) {
    if (strcmp(k, key) == 0) { fclose(f); return v; }
  }
  fclose(f);
  return MISSING;
}

static void find_group(void) {
  FILE *f = fopen("/proc/self/cgroup", "r");
  if (f == NULL) return;
  char line[PATH_MAX];
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "0::", 3) == 0) {
      line[strcspn(line, "\n")] = '\0';
      char candidate[PATH_MAX + 32];
      snprintf(candidate, sizeof candidate, "/sys/fs/cgroup%s", line + 3);
      if (access(candidate, R_OK) == 0) strcpy(group, candidate);
    }
  }
  fclose(f);
}

long svm_container_memory_limit_in_bytes(void) { return read_value("memory.max"); }
long svm_container_memory_soft_limit_in_bytes(void) { return read_value("memory.low"); }
long svm_container_memory_usage_in_bytes(void) { return read_value("memory.current"); }
long svm_container_memory_max_usage_in_bytes(void) { return read_value("memory.peak"); }
long svm_container_rss_usage_in_bytes(void) { return read_stat("anon"); }
long svm_container_cache_usage_in_bytes(void) { return read_stat("file"); }

long svm_container_memory_and_swap_limit_in_bytes(void) {
  long memory = svm_container_memory_limit_in_bytes();
  long swap = read_value("memory.swap.max");
  if (memory < 0 || swap == UNLIMITED) return memory < 0 ? memory : UNLIMITED;
  if (swap == MISSING) return memory;
  return memory + swap;
}

unsigned long svm_container_physical_memory(void) {
  return (unsigned long)sysconf(_SC_PHYS_PAGES) * (unsigned long)sysconf(_SC_PAGESIZE);
}

int svm_container_active_processor_count(void) {
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  char line[128];
  if (read_line("cpu.max", line, sizeof line) == 0 && strncmp(line, "max", 3) != 0) {
    long quota = 0, period = 0;
    if (sscanf(line, "%ld %ld", &quota, &period) == 2 && quota > 0 && period > 0) {
      long limit = (quota + period - 1) / period;
      if (limit < cpus) cpus = limit;
    }
  }
  return cpus < 1 ? 1 : (int)cpus;
}

int svm_container_initialize(int version) {
  if (version < VERSION) return TOO_NEW;
  if (version > VERSION) return TOO_OLD;
  find_group();
  char line[128];
  int cpu_limited = read_line("cpu.max", line, sizeof line) == 0 && strncmp(line, "max", 3) != 0;
  return svm_container_memory_limit_in_bytes() >= 0 || cpu_limited ? CONTAINERIZED : NOT_CONTAINERIZED;
}
