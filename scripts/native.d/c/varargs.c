/* varargs.c: fixed-argument forms of the C library's variadic calls (open, openat, fprintf,
 * mremap), which a native image calls by these names because it cannot call a variadic function
 * itself. The suffix spells the arguments after the first: S string, I int, D int, P pointer. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>

int openSII(const char *path, int flags, int mode) {
  return open(path, flags, mode);
}

int openatISII(int dirfd, const char *path, int flags, int mode) {
  return openat(dirfd, path, flags, mode);
}

int fprintfSD(FILE *stream, const char *format, const char *s, int d) {
  return fprintf(stream, format, s, d);
}

void *mremapP(void *old_address, size_t old_size, size_t new_size, int flags, void *new_address) {
  return mremap(old_address, old_size, new_size, flags, new_address);
}
