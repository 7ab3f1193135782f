// The SIGBUS guard of file mappings: see include/MappingGuard.h.
#include "MappingGuard.h"

#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

/// One guarded mapping. `start` is 0 while the slot is free; it is stored last when a slot is filled (releasing)
/// and first when it is emptied, so the handler, which loads it first (acquiring), never sees a half-made slot.
typedef struct {
    atomic_uintptr_t start;
    atomic_uintptr_t end;
    atomic_bool damaged;
    /// Claimed by a registration (compare-and-swap), so two threads never fill one slot.
    atomic_bool used;
} GuardedMapping;

static GuardedMapping mappings[MAPPING_GUARD_CAPACITY];

/// The SIGBUS action before ours, for faults that are not in a guarded mapping; written once, before the handler
/// is installed, and read only by the handler.
static struct sigaction previousAction;
/// 0: not installed; 1: being installed; 2: installed; 3: could not be installed.
static atomic_int installState;
static uintptr_t pageSize;

static void handleBusError(int signal, siginfo_t *info, void *context) {
    uintptr_t address = (uintptr_t)info->si_addr;
    for (int slot = 0; slot < MAPPING_GUARD_CAPACITY; slot++) {
        uintptr_t start = atomic_load_explicit(&mappings[slot].start, memory_order_acquire);
        if (start == 0 || address < start) continue;
        uintptr_t end = atomic_load_explicit(&mappings[slot].end, memory_order_relaxed);
        if (address >= end) continue;
        // Zero pages over the whole mapping: the faulting read is retried on them, and every later read sees
        // zeros too rather than some of the file's new bytes.
        void *zeros = mmap((void *)start, end - start, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros == MAP_FAILED) break;  // out of memory: end the process as without the guard
        atomic_store_explicit(&mappings[slot].damaged, true, memory_order_release);
        return;
    }
    // Not a guarded mapping's fault: what would have happened without this handler.
    if ((previousAction.sa_flags & SA_SIGINFO) && previousAction.sa_sigaction != NULL) {
        previousAction.sa_sigaction(signal, info, context);
        return;
    }
    if (!(previousAction.sa_flags & SA_SIGINFO) && previousAction.sa_handler != SIG_DFL
        && previousAction.sa_handler != SIG_IGN) {
        previousAction.sa_handler(signal);
        return;
    }
    // The default action: restored, then the signal raised again (a fault's read, retried on return, raises it
    // too); it is blocked while this handler runs, so it ends the process as soon as the handler returns.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(SIGBUS, &fallback, NULL);
    raise(SIGBUS);
}

/// Installs the handler once per process; whether it is installed.
static bool install(void) {
    int state = atomic_load_explicit(&installState, memory_order_acquire);
    while (state != 2 && state != 3) {
        int expected = 0;
        if (atomic_compare_exchange_strong(&installState, &expected, 1)) {
            pageSize = (uintptr_t)sysconf(_SC_PAGESIZE);
            struct sigaction action;
            memset(&action, 0, sizeof action);
            action.sa_sigaction = handleBusError;
            action.sa_flags = SA_SIGINFO;
            sigemptyset(&action.sa_mask);
            int result = sigaction(SIGBUS, &action, &previousAction);
            atomic_store_explicit(&installState, result == 0 ? 2 : 3, memory_order_release);
            return result == 0;
        }
        // Another thread is installing it: wait for its outcome (a few system calls).
        state = atomic_load_explicit(&installState, memory_order_acquire);
    }
    return state == 2;
}

int mapping_guard_register(const void *base, size_t length) {
    if (!install() || length == 0) return -1;
    uintptr_t start = (uintptr_t)base;
    uintptr_t pages = (length + pageSize - 1) / pageSize * pageSize;
    for (int slot = 0; slot < MAPPING_GUARD_CAPACITY; slot++) {
        bool expected = false;
        if (!atomic_compare_exchange_strong(&mappings[slot].used, &expected, true)) continue;
        atomic_store_explicit(&mappings[slot].damaged, false, memory_order_relaxed);
        atomic_store_explicit(&mappings[slot].end, start + pages, memory_order_relaxed);
        atomic_store_explicit(&mappings[slot].start, start, memory_order_release);
        return slot;
    }
    return -1;
}

void mapping_guard_unregister(int slot) {
    if (slot < 0 || slot >= MAPPING_GUARD_CAPACITY) return;
    atomic_store_explicit(&mappings[slot].start, 0, memory_order_release);
    atomic_store_explicit(&mappings[slot].end, 0, memory_order_relaxed);
    atomic_store_explicit(&mappings[slot].used, false, memory_order_release);
}

bool mapping_guard_is_damaged(int slot) {
    if (slot < 0 || slot >= MAPPING_GUARD_CAPACITY) return false;
    return atomic_load_explicit(&mappings[slot].damaged, memory_order_acquire);
}

void mapping_guard_mark_damaged(int slot) {
    if (slot < 0 || slot >= MAPPING_GUARD_CAPACITY) return;
    atomic_store_explicit(&mappings[slot].damaged, true, memory_order_release);
}
