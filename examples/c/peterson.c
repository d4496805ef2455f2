// expect sc=unreachable tso=reachable pso=reachable
//
// Peterson's mutual exclusion for two threads, one round each, with
// relaxed atomics (a plain mov per store on x86). The critical section
// counts its occupants with a locked increment.
// SC: unreachable: Peterson's algorithm is correct under SC. If both are
//   inside, say t0 wrote turn last (turn = 1 from then on); t1 raised its
//   flag before writing turn, so t0's wait saw flag1 = 1 and turn = 1 and
//   could not have ended.
// TSO: reachable: t0 buffers flag0 = 1 and turn = 1 and reads flag1 = 0
//   from memory; t1 does the same symmetrically; both enter.
// PSO: reachable by the same execution.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag[2];
atomic_int turn;
atomic_int inside;

void lock(int me) {
    int other = 1 - me;
    atomic_store_explicit(&flag[me], 1, memory_order_relaxed);
    atomic_store_explicit(&turn, other, memory_order_relaxed);
    while (atomic_load_explicit(&flag[other], memory_order_relaxed) == 1 &&
           atomic_load_explicit(&turn, memory_order_relaxed) == other) {
    }
}

void unlock(int me) {
    atomic_store_explicit(&flag[me], 0, memory_order_relaxed);
}

void *worker(void *arg) {
    int me = (int)(long)arg;
    lock(me);
    int before = atomic_fetch_add(&inside, 1);
    assert(before == 0);
    atomic_fetch_sub(&inside, 1);
    unlock(me);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)0);
    pthread_create(&b, NULL, worker, (void *)1);
    return 0;
}
