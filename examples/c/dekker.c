// expect sc=unreachable tso=reachable pso=reachable
//
// Dekker's entry protocol, one attempt per thread with relaxed atomics:
// raise my flag, enter if the other's flag is down. The critical section
// counts its occupants with a locked increment; the assertion fails when
// two are inside at once.
// SC: unreachable: the thread whose load comes second in the interleaving
//   reads the other's raised flag and stays out.
// TSO: reachable: both flag stores wait in the buffers while both loads
//   read 0 (store buffering, sb.c).
// PSO: reachable by the same execution.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int flag0, flag1;
atomic_int inside;

void critical(void) {
    int before = atomic_fetch_add(&inside, 1);
    assert(before == 0);
    atomic_fetch_sub(&inside, 1);
}

void *t0(void *arg) {
    atomic_store_explicit(&flag0, 1, memory_order_relaxed);
    if (atomic_load_explicit(&flag1, memory_order_relaxed) == 0) {
        critical();
    }
    atomic_store_explicit(&flag0, 0, memory_order_relaxed);
    return NULL;
}

void *t1(void *arg) {
    atomic_store_explicit(&flag1, 1, memory_order_relaxed);
    if (atomic_load_explicit(&flag0, memory_order_relaxed) == 0) {
        critical();
    }
    atomic_store_explicit(&flag1, 0, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, t0, NULL);
    pthread_create(&b, NULL, t1, NULL);
    return 0;
}
