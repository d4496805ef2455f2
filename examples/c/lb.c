// expect sc=unreachable tso=unreachable pso=unreachable
//
// Load buffering: each thread loads one variable, then stores 1 to the
// other. The assertion fails when both loads read 1.
// SC: unreachable: the first store in the interleaving follows its own
//   thread's load, which then read 0.
// TSO and PSO: unreachable: neither lets a store overtake an earlier load
//   of its thread (stores wait in buffers, loads are never delayed).
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
atomic_int r0, r1;

void *t0(void *arg) {
    int a = atomic_load_explicit(&x, memory_order_relaxed);
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    atomic_store_explicit(&r0, a, memory_order_relaxed);
    return NULL;
}

void *t1(void *arg) {
    int b = atomic_load_explicit(&y, memory_order_relaxed);
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    atomic_store_explicit(&r1, b, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, t0, NULL);
    pthread_create(&b, NULL, t1, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(!(atomic_load(&r0) == 1 && atomic_load(&r1) == 1));
    return 0;
}
