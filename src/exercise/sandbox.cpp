#include "exercise/sandbox.hpp"

#include <fmt/format.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <exception>
#include <string>
#include <thread>
#include <vector>

namespace memlab::exercise {
namespace {

#if defined(__x86_64__)
constexpr unsigned kArch = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned kArch = AUDIT_ARCH_AARCH64;
#else
#error "the compile sandbox knows x86_64 and aarch64 only"
#endif

// Every system call that takes a path (or a handle standing for one), starts a program, or opens
// a socket. newfstatat and statx are allowed only with AT_EMPTY_PATH (glibc's fstat on an fd the
// thread already holds); all others answer EACCES.
const std::vector<long>& denied() {
  static const std::vector<long> calls = {
#ifdef __NR_open
      __NR_open,
#endif
#ifdef __NR_creat
      __NR_creat,
#endif
#ifdef __NR_stat
      __NR_stat,
#endif
#ifdef __NR_lstat
      __NR_lstat,
#endif
#ifdef __NR_access
      __NR_access,
#endif
#ifdef __NR_readlink
      __NR_readlink,
#endif
#ifdef __NR_getdents
      __NR_getdents,
#endif
#ifdef __NR_uselib
      __NR_uselib,
#endif
#ifdef __NR_mkdir
      __NR_mkdir,
#endif
#ifdef __NR_rmdir
      __NR_rmdir,
#endif
#ifdef __NR_unlink
      __NR_unlink,
#endif
#ifdef __NR_rename
      __NR_rename,
#endif
#ifdef __NR_link
      __NR_link,
#endif
#ifdef __NR_symlink
      __NR_symlink,
#endif
#ifdef __NR_chmod
      __NR_chmod,
#endif
#ifdef __NR_chown
      __NR_chown,
#endif
#ifdef __NR_lchown
      __NR_lchown,
#endif
#ifdef __NR_mknod
      __NR_mknod,
#endif
#ifdef __NR_utimes
      __NR_utimes,
#endif
#ifdef __NR_openat2
      __NR_openat2,
#endif
#ifdef __NR_faccessat2
      __NR_faccessat2,
#endif
      __NR_openat,
      __NR_open_by_handle_at,
      __NR_name_to_handle_at,
      __NR_faccessat,
      __NR_readlinkat,
      __NR_getdents64,
      __NR_execve,
      __NR_execveat,
      __NR_chdir,
      __NR_fchdir,
      __NR_chroot,
      __NR_mkdirat,
      __NR_unlinkat,
      __NR_renameat2,
      __NR_linkat,
      __NR_symlinkat,
      __NR_fchmodat,
      __NR_fchownat,
      __NR_mknodat,
      __NR_utimensat,
      __NR_truncate,
      __NR_statfs,
      __NR_inotify_add_watch,
      __NR_socket,
      __NR_socketpair,
      __NR_mount,
      __NR_ptrace,
      __NR_process_vm_readv,
      __NR_fanotify_mark};
  return calls;
}

constexpr unsigned kAtEmptyPath = 0x1000;  // AT_EMPTY_PATH

void install_filter() {
  std::vector<sock_filter> f;
  auto stmt = [&](unsigned short code, unsigned k) { f.push_back(BPF_STMT(code, k)); };
  auto jump = [&](unsigned short code, unsigned k, unsigned char jt, unsigned char jf) {
    f.push_back(BPF_JUMP(code, k, jt, jf));
  };
  const unsigned deny = SECCOMP_RET_ERRNO | (EACCES & SECCOMP_RET_DATA);
  stmt(BPF_LD | BPF_W | BPF_ABS, static_cast<unsigned>(offsetof(seccomp_data, arch)));
  jump(BPF_JMP | BPF_JEQ | BPF_K, kArch, 1, 0);
  stmt(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  stmt(BPF_LD | BPF_W | BPF_ABS, static_cast<unsigned>(offsetof(seccomp_data, nr)));
#if defined(__x86_64__)
  // x32 system calls (bit 30) reach the same kernel code under other numbers.
  jump(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1);
  stmt(BPF_RET | BPF_K, deny);
#endif
  for (long nr : denied()) {
    jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 1);
    stmt(BPF_RET | BPF_K, deny);
  }
  // newfstatat(dirfd, path, buf, flags) and statx(dirfd, path, flags, mask, buf): only the
  // fd-only form (AT_EMPTY_PATH).
  auto fd_only = [&](long nr, int flags_arg) {
    jump(BPF_JMP | BPF_JEQ | BPF_K, static_cast<unsigned>(nr), 0, 4);
    stmt(BPF_LD | BPF_W | BPF_ABS, static_cast<unsigned>(offsetof(seccomp_data, args) +
                                                         8 * static_cast<std::size_t>(flags_arg)));
    jump(BPF_JMP | BPF_JSET | BPF_K, kAtEmptyPath, 0, 1);
    stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
    stmt(BPF_RET | BPF_K, deny);
  };
#ifdef __NR_newfstatat
  fd_only(__NR_newfstatat, 3);
  stmt(BPF_LD | BPF_W | BPF_ABS, static_cast<unsigned>(offsetof(seccomp_data, nr)));
#endif
  fd_only(__NR_statx, 2);
  stmt(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  sock_fprog prog{static_cast<unsigned short>(f.size()), f.data()};
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    throw SandboxUnavailable(
        fmt::format("the compile sandbox could not be set up (PR_SET_NO_NEW_PRIVS: {}); memlab "
                    "compiles no learner code without it",
                    std::strerror(errno)));
  }
  // No SECCOMP_FILTER_FLAG_TSYNC: the filter holds for this thread (and threads it starts) only.
  if (syscall(__NR_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
    throw SandboxUnavailable(
        fmt::format("the compile sandbox could not be set up (seccomp: {}); memlab compiles no "
                    "learner code without it",
                    std::strerror(errno)));
  }
}

}  // namespace

void run_without_files(const std::function<void()>& fn) {
  std::exception_ptr error;
  std::thread t([&] {
    try {
      install_filter();
      fn();
    } catch (...) {
      error = std::current_exception();
    }
  });
  t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace memlab::exercise
