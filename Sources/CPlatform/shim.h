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
