// expect sc=unreachable tso=unreachable pso=unreachable
//
// Dekker's entry protocol (dekker.c) with a seq_cst fence between raising
// my flag and reading the other's:
// raise my flag, enter if the other's flag is down. The critical section
// counts its occupants with a locked increment; the assertion fails when
// two are inside at once.
// SC: unreachable (as dekker.c).
// TSO and PSO: unreachable: the fence puts each flag in memory before the
//   thread's load, so the argument of SC holds (sb-fence.c).
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
    atomic_thread_fence(memory_order_seq_cst);
    if (atomic_load_explicit(&flag1, memory_order_relaxed) == 0) {
        critical();
    }
    atomic_store_explicit(&flag0, 0, memory_order_relaxed);
    return NULL;
}

void *t1(void *arg) {
    atomic_store_explicit(&flag1, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
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
