// expect sc=unreachable tso=reachable pso=reachable
//
// Store buffering with relaxed atomics: each thread stores to its flag,
// then loads the other's. The assertion fails when both loads read 0.
// SC: unreachable: whichever load comes last in the interleaving follows
//   both stores, so it reads 1.
// TSO: reachable: both stores wait in the store buffers while both loads
//   read 0 from memory (x86 compiles relaxed stores to a plain mov).
// PSO: reachable by the same execution.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int r0, r1;

void *t0(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    r0 = atomic_load_explicit(&y, memory_order_relaxed);
    return NULL;
}

void *t1(void *arg) {
    atomic_store_explicit(&y, 1, memory_order_relaxed);
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
