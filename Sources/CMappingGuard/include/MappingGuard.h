#ifndef MOVIESEARCH_MAPPING_GUARD_H
#define MOVIESEARCH_MAPPING_GUARD_H

#include <stdbool.h>
#include <stddef.h>

#if !defined(__clang__) && !defined(_Nonnull)
#define _Nonnull  // a clang nullability annotation (SwiftPM builds C targets with clang)
#endif

/// A guard against SIGBUS in file mappings whose file is cut short under them (`truncate -s 0`, `cp` or a shell
/// redirect over a mapped file): a read of a page past the file's new end raises SIGBUS, which ends the process.
///
/// `mapping_guard_register` installs (once per process) a SIGBUS handler and records a mapping in a fixed table.
/// When a read of a recorded mapping faults, the handler maps anonymous zero pages over the whole mapping
/// (`MAP_FIXED`), sets the mapping's damaged flag and returns: the read is retried and sees zeros, and the caller,
/// which reads the flag (`mapping_guard_is_damaged`), throws the answer away. A fault anywhere else goes to the
/// handler that was installed before (the Swift runtime's backtracer, or the default action: the process ends
/// with SIGBUS as it would have).
///
/// The handler is async-signal-safe: it allocates nothing and takes no lock; it reads the table with atomic loads
/// and calls `mmap`, `sigaction` and `raise` (plain system calls; `mmap` is not on POSIX's list, but on Linux and
/// the Apple platforms it is the system call itself, which is what makes this technique work there).

/// How many mappings can be guarded at once; a registration past them is refused (the mapping is unguarded).
#define MAPPING_GUARD_CAPACITY 64

/// Guards the mapping `[base, base + length)` (`base` page-aligned, as `mmap` returns it). Returns the slot to
/// pass to the other functions, or -1 when the table is full or the handler cannot be installed.
int mapping_guard_register(const void *_Nonnull base, size_t length);

/// Stops guarding `slot` (call it before unmapping: a fault in the range after that is not this mapping's).
void mapping_guard_unregister(int slot);

/// Whether a read of the mapping in `slot` faulted (then the mapping holds zero pages, not the file).
bool mapping_guard_is_damaged(int slot);

/// Sets the damaged flag of `slot` as a fault would, for tests of what reads it.
void mapping_guard_mark_damaged(int slot);

#endif
