#include <sys/prctl.h>
#include <sys/resource.h>

/* prctl is variadic and cannot be called from Swift directly. The soft core limit goes to 0 and
   the hard one stays, so a program `vault run` starts gets its caller's limit back. */
static inline int vault_disable_core_dumps(void) {
  struct rlimit limit = {0, 0};
  getrlimit(RLIMIT_CORE, &limit);
  limit.rlim_cur = 0;
  int a = setrlimit(RLIMIT_CORE, &limit);
  int b = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  return (a == 0 && b == 0) ? 0 : -1;
}

#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The record layout of getdents64(2); glibc declares no struct for the raw call. */
struct vault_dirent64 {
  unsigned long long d_ino;
  long long d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

/* Removes `name` under the folder `parent` and, when it is a folder, everything in it.
   Async-signal-safe: only openat, getdents64, lseek, unlinkat and close, with buffers on the
   stack, so the edit folder can be removed from a signal handler. Symbolic links are removed,
   never followed. Returns 0 when nothing is left. */
static inline int vault_remove_tree_at(int parent, const char *name, int depth) {
  if (depth > 16) return -1;
  int fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) return 0;
    return unlinkat(parent, name, 0);
  }
  char buffer[4096];
  int found = 1;
  /* Entries are removed batch by batch, rewinding after each, since unlinking while reading
     may move the directory offsets. */
  for (int round = 0; found && round < 64; round++) {
    found = 0;
    long n = syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (n <= 0) break;
    for (long offset = 0; offset < n;) {
      struct vault_dirent64 *entry = (struct vault_dirent64 *)(buffer + offset);
      offset += entry->d_reclen;
      const char *child = entry->d_name;
      if (child[0] == '.' && (child[1] == 0 || (child[1] == '.' && child[2] == 0))) continue;
      found = 1;
      if (unlinkat(fd, child, 0) != 0) vault_remove_tree_at(fd, child, depth + 1);
    }
    lseek(fd, 0, SEEK_SET);
  }
  close(fd);
  return unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT ? 0 : -1;
}

/* Removes the folder at `path` and everything in it (async-signal-safe). */
static inline int vault_remove_tree(const char *path) {
  return vault_remove_tree_at(AT_FDCWD, path, 0);
}

/* Sends `sig` to the child `pid`, waits up to two seconds for it to end, then kills it.
   Async-signal-safe: kill, waitpid and nanosleep only. */
static inline void vault_stop_child(pid_t pid, int sig) {
  if (pid <= 0) return;
  kill(pid, sig);
  struct timespec pause = {0, 50 * 1000 * 1000};
  for (int i = 0; i < 40; i++) {
    if (waitpid(pid, 0, WNOHANG) != 0) return;
    nanosleep(&pause, 0);
  }
  kill(pid, SIGKILL);
  waitpid(pid, 0, 0);
}

#include <sys/vfs.h>

/* The file system type of `path` (statfs(2) f_type, such as TMPFS_MAGIC), or -1. */
static inline long vault_fs_type(const char *path) {
  struct statfs info;
  return statfs(path, &info) == 0 ? (long)info.f_type : -1;
}

#include <spawn.h>

/* glibc 2.34 and later; spawn.h declares it only under _DEFAULT_SOURCE, which the Swift module
   of this header does not define. */
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);

/* A spawn action that closes every descriptor from `from` up in the child, so it inherits
   nothing of vault's but what the other actions set up. */
static inline int vault_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

#include <spawn.h>

/* glibc's posix_spawn_file_actions_addchdir_np (2.29), which Swift's Glibc module does not
   export: the child starts in `path`. */
static inline int vault_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}

#include <linux/close_range.h>

/* Marks every descriptor from `first` up close-on-exec (close_range(2), Linux 5.11), so a program
   vault replaces itself with inherits descriptors 0-2 only. Returns 0 on success. */
static inline int vault_cloexec_from(unsigned int first) {
  return (int)syscall(SYS_close_range, first, ~0U, CLOSE_RANGE_CLOEXEC);
}

/* An unnamed file (O_TMPFILE) of mode 0600 in the folder `folder`, open for writing, or -1 with
   errno (EOPNOTSUPP or EISDIR where the file system has no unnamed files). Nothing of it has a
   name until linkat gives it one, so a process killed while writing leaves nothing behind. */
#ifdef O_TMPFILE
#define VAULT_O_TMPFILE O_TMPFILE
#else /* glibc names it only under _GNU_SOURCE, which this module does not define */
#define VAULT_O_TMPFILE (__O_TMPFILE | O_DIRECTORY)
#endif
static inline int vault_open_unnamed(const char *folder) {
  return open(folder, VAULT_O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
}

/* Gives the unnamed file `fd` the name `path`, failing with EEXIST when `path` exists (a file,
   a folder or a symbolic link, dangling or not): linkat through /proc/self/fd, which needs no
   privilege. */
static inline int vault_link_unnamed(int fd, const char *path) {
  char source[64];
  snprintf(source, sizeof source, "/proc/self/fd/%d", fd);
  return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}

/* Starts writing back the dirty pages of the file `fd` without waiting for them
   (sync_file_range(2) with SYNC_FILE_RANGE_WRITE, through syscall(2): glibc declares it only
   under _GNU_SOURCE). A hint only: a later fsync still makes them durable. 0, or -1 with errno;
   0 where the system has no such call. */
static inline int vault_start_writeback(int fd) {
#ifdef SYS_sync_file_range
  return (int)syscall(SYS_sync_file_range, fd, (long long)0, (long long)0, 2 /* WRITE */);
#else
  (void)fd;
  return 0;
#endif
}

#include <sys/socket.h>
#include <sys/un.h>
#include <string.h>

/* The unlock agent's socket calls: the CMSG_* macros and struct ucred are not visible to Swift. */

/* Sends `length` bytes of `bytes` on the stream socket `sock` in one sendmsg(2), with the `count`
   descriptors of `fds` attached as SCM_RIGHTS (at most 8). Returns the bytes sent, or -1 with
   errno. MSG_NOSIGNAL: a closed peer is EPIPE, never SIGPIPE. */
static inline long vault_send_with_fds(int sock, const void *bytes, unsigned long length,
                                       const int *fds, int count) {
  struct iovec io = {(void *)bytes, length};
  struct msghdr message;
  memset(&message, 0, sizeof message);
  message.msg_iov = &io;
  message.msg_iovlen = 1;
  union {
    char buffer[CMSG_SPACE(8 * sizeof(int))];
    struct cmsghdr align;
  } control;
  if (count > 8) { errno = EINVAL; return -1; }
  if (count > 0) {
    memset(&control, 0, sizeof control);
    message.msg_control = control.buffer;
    message.msg_controllen = CMSG_SPACE((unsigned long)count * sizeof(int));
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN((unsigned long)count * sizeof(int));
    memcpy(CMSG_DATA(header), fds, (unsigned long)count * sizeof(int));
  }
  return (long)sendmsg(sock, &message, MSG_NOSIGNAL);
}

/* Receives up to `length` bytes from `sock` into `bytes` with recvmsg(2), and the descriptors
   that came with them (SCM_RIGHTS, close-on-exec) into `fds`, at most `capacity` of them (at most
   8); `*count` is how many arrived. Descriptors beyond `capacity`, or a truncated control
   message, are closed and reported as -1 with errno EMSGSIZE. Returns the bytes received (0 at
   end of file), or -1 with errno. */
/* recvmsg(2) of up to `length` bytes of `sock` into `bytes`, with `control_length` bytes at
   `control` (zeroed first) for the control messages, descriptors received close-on-exec: the
   receive both readers below share. Returns the bytes read, or -1 with errno. */
static inline long vault_receive_message(int sock, void *bytes, unsigned long length,
                                         void *control, unsigned long control_length,
                                         struct msghdr *message) {
  struct iovec io = {bytes, length};
  memset(message, 0, sizeof *message);
  message->msg_iov = &io;
  message->msg_iovlen = 1;
  memset(control, 0, control_length);
  message->msg_control = control;
  message->msg_controllen = control_length;
  long got = (long)recvmsg(sock, message, MSG_CMSG_CLOEXEC);
  message->msg_iov = NULL; /* `io` ends here; only the control messages are read after. */
  message->msg_iovlen = 0;
  return got;
}

static inline long vault_receive_with_fds(int sock, void *bytes, unsigned long length, int *fds,
                                          int capacity, int *count) {
  struct msghdr message;
  union {
    char buffer[CMSG_SPACE(8 * sizeof(int))];
    struct cmsghdr align;
  } control;
  *count = 0;
  long got = vault_receive_message(sock, bytes, length, &control, sizeof control, &message);
  if (got < 0) return -1;
  int refused = (message.msg_flags & MSG_CTRUNC) != 0;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS) continue;
    int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
    int *incoming = (int *)CMSG_DATA(header);
    for (int i = 0; i < n; i++) {
      if (*count < capacity && *count < 8 && !refused) {
        fds[(*count)++] = incoming[i];
      } else {
        close(incoming[i]);
        refused = 1;
      }
    }
  }
  if (refused) {
    for (int i = 0; i < *count; i++) close(fds[i]);
    *count = 0;
    errno = EMSGSIZE;
    return -1;
  }
  return got;
}

/* The process id and user id of the peer of the Unix socket `sock` (SO_PEERCRED, as it was
   when the peer connected). Returns 0, or -1 with errno. */
/* struct ucred of <sys/socket.h>, declared there only under _GNU_SOURCE. */
struct vault_ucred {
  pid_t pid;
  uid_t uid;
  gid_t gid;
};

static inline int vault_peer_credentials(int sock, int *pid, unsigned int *uid,
                                         unsigned int *gid) {
  struct vault_ucred credentials;
  socklen_t size = sizeof credentials;
  if (getsockopt(sock, SOL_SOCKET, SO_PEERCRED, &credentials, &size) != 0) return -1;
  *pid = credentials.pid;
  *uid = credentials.uid;
  *gid = credentials.gid;
  return 0;
}

/* SCM_CREDENTIALS of <sys/socket.h>, declared there only under _GNU_SOURCE (Linux's value). */
#ifndef SCM_CREDENTIALS
#define SCM_CREDENTIALS 0x02
#endif

/* Reads up to `length` bytes of the Unix stream socket `sock` with the credentials the kernel
   attached to them (SCM_CREDENTIALS, sent when the reader has SO_PASSCRED on): the writer's
   process id into `*pid`, or -1 when none came. Descriptors that came along are closed. Returns
   the bytes read (0 at end of file), or -1 with errno. */
static inline long vault_receive_with_writer(int sock, void *bytes, unsigned long length,
                                             int *pid) {
  struct msghdr message;
  union {
    char buffer[CMSG_SPACE(sizeof(struct vault_ucred)) + CMSG_SPACE(8 * sizeof(int))];
    struct cmsghdr align;
  } control;
  *pid = -1;
  long got = vault_receive_message(sock, bytes, length, &control, sizeof control, &message);
  if (got < 0) return -1;
  for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header;
       header = CMSG_NXTHDR(&message, header)) {
    if (header->cmsg_level != SOL_SOCKET) continue;
    if (header->cmsg_type == SCM_CREDENTIALS &&
        header->cmsg_len >= CMSG_LEN(sizeof(struct vault_ucred))) {
      struct vault_ucred credentials;
      memcpy(&credentials, CMSG_DATA(header), sizeof credentials);
      *pid = credentials.pid;
    } else if (header->cmsg_type == SCM_RIGHTS) {
      int n = (int)((header->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      int *incoming = (int *)CMSG_DATA(header);
      for (int i = 0; i < n; i++) close(incoming[i]);
    }
  }
  if (message.msg_flags & MSG_CTRUNC) *pid = -1;
  return got;
}

/* Turns SO_PASSCRED on (1) or off (0) for the socket `sock`. Returns 0, or -1 with errno. */
static inline int vault_pass_credentials(int sock, int on) {
  return setsockopt(sock, SOL_SOCKET, SO_PASSCRED, &on, sizeof on);
}

/* A pidfd of the peer of the Unix socket `sock`, bound to that process by the kernel when it
   connected or listened (SO_PEERPIDFD, Linux 6.5). -1 with errno (ENOPROTOOPT before 6.5). */
static inline int vault_peer_pidfd(int sock) {
  int pidfd = -1;
  socklen_t size = sizeof pidfd;
  if (getsockopt(sock, SOL_SOCKET, 77 /* SO_PEERPIDFD */, &pidfd, &size) != 0) return -1;
  return pidfd;
}

/* 1 when the process of `pidfd` has not been reaped (pidfd_send_signal(2) with signal 0),
   0 when it is gone, -1 when the call is missing. */
static inline int vault_pidfd_alive(int pidfd) {
#ifdef SYS_pidfd_send_signal
  if (syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0) return 1;
  return errno == ESRCH ? 0 : (errno == ENOSYS ? -1 : 0);
#else
  (void)pidfd;
  return -1;
#endif
}

/* Drops a set-group-id install's group for good (real, effective and saved), before another
   program is started: it must never run with vault's group. */
static inline int vault_drop_group(void) {
  gid_t real = getgid();
  return (int)syscall(SYS_setresgid, real, real, real);
}

/* libassuan's `atfork` callback for `assuan_pipe_connect`, run in the child between its fork and
   its exec: drops a set-group-id install's group, as `vault_spawnattr_resetids` does for every
   program vault starts with posix_spawn, so a pinentry never runs with vault's group (which
   identifies vault's agent to its clients); the child ends with 127 if it cannot. A raw syscall
   only, safe in the child of a fork. */
static void vault_assuan_atfork_drop_group(void *opaque, int reserved) {
  (void)reserved;
  /* `opaque`, when given, is a shared page where the child leaves its pid, so the parent can
     end a program that never greets (libassuan waits for the greeting before it returns). */
  if (opaque) *(volatile int *)opaque = (int)getpid();
  /* A process group of its own, so that ending it ends what it started too (a wrapper script
     that runs the real pinentry without exec). */
  (void)setpgid(0, 0);
  if (vault_drop_group() != 0) _exit(127);
}

/* Sends `sig` to the process group `pid` leads, or to `pid` alone when it leads none. */
static inline void vault_end_program(int pid, int sig) {
  if (pid <= 0) return;
  if (kill(-pid, sig) != 0) (void)kill(pid, sig);
}

/* The callback above, as the pointer `assuan_pipe_connect` takes. */
static inline void *vault_assuan_atfork(void) { return (void *)&vault_assuan_atfork_drop_group; }

/* Binds (`listen_too` nonzero: and listens on) or connects the socket `sock` to the Unix socket
   path `path`. -1 with ENAMETOOLONG when the path does not fit sun_path. */
static inline int vault_unix_address(int sock, const char *path, int bind_it) {
  struct sockaddr_un address;
  memset(&address, 0, sizeof address);
  address.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof address.sun_path) { errno = ENAMETOOLONG; return -1; }
  strcpy(address.sun_path, path);
  if (bind_it) {
    if (bind(sock, (struct sockaddr *)&address, sizeof address) != 0) return -1;
    return listen(sock, 64);
  }
  return connect(sock, (struct sockaddr *)&address, sizeof address);
}

/* The longest Unix socket path, in bytes, without its terminating zero. */
static inline int vault_unix_path_limit(void) {
  struct sockaddr_un address;
  return (int)sizeof address.sun_path - 1;
}

/* pidfd_open(2) (Linux 5.3): a descriptor that polls readable when the child `pid` ends. */
static inline int vault_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
  return (int)syscall(SYS_pidfd_open, pid, 0);
#else
  (void)pid;
  errno = ENOSYS;
  return -1;
#endif
}

/* POSIX_SPAWN_SETSID (glibc 2.26), which spawn.h names only under _GNU_SOURCE: the child starts
   a session of its own, with no controlling terminal. */
static inline int vault_spawnattr_setsid(posix_spawnattr_t *attributes) {
  short flags = 0;
  posix_spawnattr_getflags(attributes, &flags);
  return posix_spawnattr_setflags(attributes, flags | 0x80 /* POSIX_SPAWN_SETSID */);
}

/* POSIX_SPAWN_RESETIDS: the child's effective ids are its real ones, so a program vault starts
   never runs with the group of a set-group-id install. */
static inline int vault_spawnattr_resetids(posix_spawnattr_t *attributes) {
  short flags = 0;
  posix_spawnattr_getflags(attributes, &flags);
  return posix_spawnattr_setflags(attributes, flags | POSIX_SPAWN_RESETIDS);
}

/* fork(2) for the agent, which is single-threaded when it forks a worker. */
static inline int vault_fork(void) { return (int)fork(); }

/* pipe2(2), accept4(2) and O_PATH, which glibc declares only under _GNU_SOURCE. */
static inline int vault_pipe_cloexec_nonblock(int fds[2]) {
  return (int)syscall(SYS_pipe2, fds, O_CLOEXEC | O_NONBLOCK);
}

static inline int vault_accept_cloexec(int sock) {
  return (int)syscall(SYS_accept4, sock, 0, 0, SOCK_CLOEXEC);
}

#ifdef O_PATH
#define VAULT_O_PATH O_PATH
#else
#define VAULT_O_PATH __O_PATH
#endif

/* The folder `path` as an O_PATH descriptor (no read permission needed), for fchdir. */
static inline int vault_open_folder_path(const char *path) {
  return open(path, VAULT_O_PATH | O_DIRECTORY | O_CLOEXEC);
}

/* 1 when the signal `sig` is ignored (SIG_IGN) in this process, else 0. */
static inline int vault_signal_ignored(int sig) {
  struct sigaction current;
  if (sigaction(sig, 0, &current) != 0) return 0;
  return current.sa_handler == SIG_IGN;
}

/* prctl(PR_SET_PDEATHSIG, sig): the calling process gets `sig` when its parent ends. */
static inline int vault_set_parent_death_signal(int sig) {
  return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0, 0, 0);
}

#include <stdlib.h>

/* An allocator that wipes what it frees (explicit_bzero), for a library handed secrets in its
 * own buffers (libassuan's lines, which carry the PIN a pinentry sends): each block keeps its
 * size in the 16 bytes before it. vault_wiping_realloc copies into a new block and wipes the
 * old one. */
static inline void *vault_wiping_malloc(size_t count) {
  if (count > (size_t)-1 - 16) return NULL;
  size_t *block = malloc(count + 16);
  if (!block) return NULL;
  block[0] = count;
  return (char *)block + 16;
}

static inline void vault_wiping_free(void *pointer) {
  if (!pointer) return;
  char *start = (char *)pointer - 16;
  explicit_bzero(pointer, ((size_t *)start)[0]);
  free(start);
}

static inline void *vault_wiping_realloc(void *pointer, size_t count) {
  if (!pointer) return vault_wiping_malloc(count);
  void *moved = vault_wiping_malloc(count);
  if (!moved) return NULL;
  size_t old = ((size_t *)((char *)pointer - 16))[0];
  memcpy(moved, pointer, old < count ? old : count);
  vault_wiping_free(pointer);
  return moved;
}

#include <pthread.h>

/* Runs body(context) on a new thread (a 64 MiB stack) and waits for it with every signal
 * blocked on the calling thread, so signals reach the new one. For a process forked from a
 * single-threaded parent: the calling thread's cached thread id is the parent's (the Swift
 * runtime's locks keep it per thread), so it must run nothing that another thread could
 * contend with. Returns pthread_create's error, else 0 once body returned. */
static inline int vault_run_on_fresh_thread(void *(*body)(void *), void *context) {
  pthread_attr_t attributes;
  pthread_t thread;
  pthread_attr_init(&attributes);
  pthread_attr_setstacksize(&attributes, (size_t)64 << 20);
  int made = pthread_create(&thread, &attributes, body, context);
  pthread_attr_destroy(&attributes);
  if (made != 0) return made;
  sigset_t all;
  sigfillset(&all);
  pthread_sigmask(SIG_BLOCK, &all, NULL);
  pthread_join(thread, NULL);
  return 0;
}
