// expect sc=unreachable tso=unreachable pso=unreachable
//
// Store buffering (sb.c) with atomic_thread_fence(memory_order_seq_cst)
// between each thread's store and load: an mfence.
// SC: unreachable (as sb.c).
// TSO and PSO: unreachable: the fence waits until the thread's store is in
//   memory, so the load that comes second in memory order follows both
//   stores and reads 1.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int r0, r1;

void *t0(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    r0 = atomic_load_explicit(&y, memory_order_relaxed);
    return NULL;
}

void *t1(void *arg) {
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
    r1 = atomic_load_explicit(&x, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, t0, NULL);
    pthread_create(&b, NULL, t1, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(!(r0 == 0 && r1 == 0));
    return 0;
}
