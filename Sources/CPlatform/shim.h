#include <sys/prctl.h>
#include <sys/resource.h>

/* prctl is variadic and cannot be called from Swift directly. */
static inline int vault_disable_core_dumps(void) {
  struct rlimit none = {0, 0};
  int a = setrlimit(RLIMIT_CORE, &none);
  int b = prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  return (a == 0 && b == 0) ? 0 : -1;
}
