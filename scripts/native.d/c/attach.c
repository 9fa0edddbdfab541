/* attach.c: the attach listener (jcmd) calls of a native image. mesh builds without
 * --enable-monitoring=attach, so these answer "not available" and never open a socket. */
void svm_attach_startup(const char *socket_file) { (void)socket_file; }
void svm_attach_listener_cleanup(int fd, const char *socket_file) { (void)fd; (void)socket_file; }
int svm_attach_check_socket_file(const char *socket_file) { (void)socket_file; return 0; }
int svm_attach_is_init_trigger(const char *file) { (void)file; return 0; }
int svm_attach_create_listener(const char *socket_file) { (void)socket_file; return -1; }
int svm_attach_wait_for_request(int fd) { (void)fd; return -1; }
void svm_attach_shutdown_socket(int fd) { (void)fd; }
