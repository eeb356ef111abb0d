# Native worker threads and the memory they step, shared by both cores' vectorised envs
# (one launcher: tl_thread_start starts a detached thread with every signal blocked) and
# what they coordinate with: atomics, a park-and-spin hand-off between steps, the caller's
# wait, and zeroed big blocks on huge pages. tl_run_threads runs one function on n
# arguments (n - 1 new threads and the caller) and returns when all are done.

from libc.string cimport memset
from posix.unistd cimport getpid

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if !defined(_WIN32)
    #include <sys/mman.h>
    #endif
    /* Zeroed memory for the vectorised env's games. Large blocks are an anonymous mapping
       (zero pages handed out lazily, so nothing is touched up front) advised, on Linux,
       into transparent huge pages: one env's game spans a 4 KiB page, so stepping N envs
       otherwise misses the TLB on every env (a page walk each, costlier still in a VM).
       Free with tl_big_free and the same size. */
    #define TL_BIG (((size_t)2) << 20)
    static void* tl_big_calloc(size_t n) {
    #if defined(_WIN32)
        return calloc(1, n);
    #else
        void* p;
        if (n < TL_BIG) return calloc(1, n);
        p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) return NULL;
    #if defined(MADV_HUGEPAGE)
        madvise(p, n, MADV_HUGEPAGE);
    #endif
        return p;
    #endif
    }
    static void tl_big_free(void* p, size_t n) {
        if (p == NULL) return;
    #if defined(_WIN32)
        free(p);
    #else
        if (n < TL_BIG) free(p); else munmap(p, n);
    #endif
    }
    /* Blocks of envs are claimed by atomically advancing a range's counter (one range per
       stepping thread, see _vc_claim_run), so a thread that starts late or runs on a
       slower core simply takes fewer blocks. */
    static long long tl_claim(long long* next, long long step) {
        return __atomic_fetch_add(next, step, __ATOMIC_RELAXED);
    }
    static void tl_store_ll(long long* p, long long v) { __atomic_store_n(p, v, __ATOMIC_RELAXED); }
    static int tl_load(const int* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    static void tl_store(int* p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }
    static int tl_add(int* p, int v) { return __atomic_add_fetch(p, v, __ATOMIC_ACQ_REL); }
    static int tl_cas(int* p, int expected, int desired) {
        return __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST,
                                           __ATOMIC_SEQ_CST);
    }
    static void tl_relax(void) {
    #if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
    #elif defined(__aarch64__)
        __asm__ __volatile__("yield");
    #endif
    }
    """
    void* tl_big_calloc(size_t n) nogil
    void tl_big_free(void* p, size_t n) nogil
    long long tl_claim(long long* next, long long step) nogil
    void tl_store_ll(long long* p, long long v) nogil
    int tl_load(const int* p) nogil
    void tl_store(int* p, int v) nogil
    int tl_add(int* p, int v) nogil
    int tl_cas(int* p, int expected, int desired) nogil
    void tl_relax() nogil

cdef extern from *:
    """
    #include <time.h>
    #include <sched.h>
    #if !defined(_WIN32)
    #include <pthread.h>
    #include <signal.h>
    #endif
    /* Start a detached native worker thread with every signal blocked (signals are the main
       thread's business: it checks for Ctrl-C between its blocks). Returns 0 on success; a
       failure only means the calling thread steps more blocks itself. */
    static int tl_thread_start(void* (*fn)(void*), void* arg) {
    #if defined(_WIN32)
        (void)fn; (void)arg;
        return -1;
    #else
        pthread_t th;
        pthread_attr_t at;
        sigset_t all, old;
        int r;
        if (pthread_attr_init(&at) != 0) return -1;
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        sigfillset(&all);
        pthread_sigmask(SIG_BLOCK, &all, &old);
        r = pthread_create(&th, &at, fn, arg);
        pthread_sigmask(SIG_SETMASK, &old, NULL);

        pthread_attr_destroy(&at);
        return r;
    #endif
    }
    /* Names the calling thread, so that top or a debugger can tell the env's workers apart
       (each worker names itself: naming a detached thread from outside races its exit). */
    static void tl_name_self(void) {
    #if defined(__linux__) && defined(__GLIBC__)
        pthread_setname_np(pthread_self(), "tienlen-vec");
    #endif
    }
    /* A worker that finished its share of a step stays parked for up to spin_ns, watching its
       slot: the next step hands it work by one compare-and-swap instead of waking a sleeping
       thread (on a VM, waking an idle vCPU took 50-130 us a step, several percent of a
       2 ms step). Returns 1 when handed work (slot == 2), 0 when it gave the slot up (its
       thread then returns to the pool) or `stop` was raised. */
    static int tl_park(int* slot, const int* stop, long long spin_ns) {
        struct timespec t0, t;
        unsigned i;
        int parked = 1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (i = 1;; i++) {
            if (__atomic_load_n(slot, __ATOMIC_ACQUIRE) == 2) return 1;
            if ((i & 63) == 0) {
                if (__atomic_load_n(stop, __ATOMIC_ACQUIRE)) break;
                clock_gettime(CLOCK_MONOTONIC, &t);
                if ((long long)(t.tv_sec - t0.tv_sec) * 1000000000LL
                    + (t.tv_nsec - t0.tv_nsec) > spin_ns) break;
                /* On a busy machine, let whatever else wants this core run now and then. */
                sched_yield();
            }
            tl_relax();
        }
        /* Give the slot up, unless the step claimed it at this very moment. */
        return !__atomic_compare_exchange_n(slot, &parked, 0, 0, __ATOMIC_SEQ_CST,
                                            __ATOMIC_SEQ_CST);
    }
    static long long tl_now_ns(void) {
        struct timespec t;
        clock_gettime(CLOCK_MONOTONIC, &t);
        return (long long)t.tv_sec * 1000000000LL + t.tv_nsec;
    }
    static long long tl_load_ll(const long long* p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
    /* The calling thread waits for the workers of a step: each ends within one block.
       It spins for 50 us (the usual case: a block ends sooner), then sleeps in short naps,
       so that on a busy machine it does not take the core a preempted worker needs. */
    static void tl_wait_zero(const int* count) {
        struct timespec t0, t, nap = {0, 20000};
        unsigned i;
        int sleeping = 0;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (i = 1; __atomic_load_n(count, __ATOMIC_ACQUIRE) != 0; i++) {
            if (sleeping) {
                nanosleep(&nap, NULL);
            } else if ((i & 63) == 0) {
                clock_gettime(CLOCK_MONOTONIC, &t);
                sleeping = (long long)(t.tv_sec - t0.tv_sec) * 1000000000LL
                           + (t.tv_nsec - t0.tv_nsec) > 50000;
            } else {
                tl_relax();
            }
        }
    }
    """
    int tl_park(int* slot, const int* stop, long long spin_ns) nogil
    void tl_name_self() nogil
    void tl_wait_zero(const int* count) nogil
    long long tl_now_ns() nogil
    long long tl_load_ll(const long long* p) nogil
    int tl_thread_start(void* (*fn)(void*) noexcept nogil, void* arg) nogil
    int sched_yield() nogil

cdef extern from *:
    """
    /* Run fn(args[k]) for k = 0..n-1: n - 1 of them on new threads (tl_thread_start: every
       signal blocked, Ctrl-C is the caller's business), args[0] on the calling thread, and
       return once all are done. A thread that cannot be started is run here instead. */
    typedef struct { void* (*fn)(void*); void* arg; int* running; } tl_job;
    static void* tl_job_main(void* p) {
        tl_job* j = (tl_job*)p;
        int* running = j->running;
        j->fn(j->arg);
        /* The last touch of the caller's memory: it may return as soon as this lands. */
        __atomic_sub_fetch(running, 1, __ATOMIC_ACQ_REL);
        return NULL;
    }
    static void tl_run_threads(void* (*fn)(void*), void** args, int n) {
        tl_job jobs[64];
        int running = 0, k;
        for (k = 1; k < n && k < 64; k++) {
            jobs[k].fn = fn;
            jobs[k].arg = args[k];
            jobs[k].running = &running;
            __atomic_add_fetch(&running, 1, __ATOMIC_ACQ_REL);
            if (tl_thread_start(tl_job_main, &jobs[k]) != 0) {
                __atomic_sub_fetch(&running, 1, __ATOMIC_ACQ_REL);
                fn(args[k]);
            }
        }
        fn(args[0]);
        tl_wait_zero(&running);
    }
    """
    ctypedef void* (*tl_fn)(void*) noexcept nogil
    void tl_run_threads(tl_fn fn, void** args, int n) nogil
