/* sdp_support.c: the natives of JDK 25's sun.net.sdp.SdpSupport, which JDK 26's libnet no longer
 * has. create0 opens an InfiniBand SDP stream socket; convert0 turns an open socket into one by
 * putting a new SDP socket on its descriptor. Where the kernel has no SDP, both throw IOException
 * as JDK 25 does. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <jni.h>

#ifndef AF_INET_SDP
#define AF_INET_SDP 27
#endif

static void throw_io(JNIEnv *env, const char *what) {
  jclass io = (*env)->FindClass(env, "java/io/IOException");
  if (io != NULL) {
    char message[256];
    strncpy(message, what, sizeof message - 1);
    message[sizeof message - 1] = '\0';
    strncat(message, strerror(errno), sizeof message - strlen(message) - 1);
    (*env)->ThrowNew(env, io, message);
  }
}

JNIEXPORT jint JNICALL Java_sun_net_sdp_SdpSupport_create0(JNIEnv *env, jclass c) {
  int s = socket(AF_INET_SDP, SOCK_STREAM, 0);
  if (s < 0) throw_io(env, "socket: ");
  return s;
}

JNIEXPORT void JNICALL Java_sun_net_sdp_SdpSupport_convert0(JNIEnv *env, jclass c, jint fd) {
  int s = socket(AF_INET_SDP, SOCK_STREAM, 0);
  if (s < 0) {
    throw_io(env, "socket: ");
    return;
  }
  int res = dup2(s, fd);
  int saved = errno;
  close(s);
  if (res < 0) {
    errno = saved;
    throw_io(env, "dup2: ");
  }
}
