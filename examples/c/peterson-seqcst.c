// expect sc=unreachable tso=unreachable pso=unreachable
//
// Peterson's mutual exclusion (peterson.c) with seq_cst stores and loads,
// as C11 requires: each store is a mov followed by an mfence.
// SC: unreachable: Peterson's algorithm is correct under SC. If both are
//   inside, say t0 wrote turn last (turn = 1 from then on); t1 raised its
//   flag before writing turn, so t0's wait saw flag1 = 1 and turn = 1 and
//   could not have ended.
// TSO and PSO: unreachable: every store is in memory before the thread's
//   next instruction, so every execution is one of SC.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag[2];
atomic_int turn;
atomic_int inside;

void lock(int me) {
    int other = 1 - me;
    atomic_store(&flag[me], 1);
    atomic_store(&turn, other);
    while (atomic_load(&flag[other]) == 1 &&
           atomic_load(&turn) == other) {
    }
}

void unlock(int me) {
    atomic_store(&flag[me], 0);
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
