// expect sc=unreachable tso=unreachable pso=unreachable
//
// Independent reads of independent writes: two writers, two readers that
// read both variables in opposite orders. The assertion fails when the
// readers disagree on the order of the writes.
// SC: unreachable: the writes happen in one order for everyone.
// TSO and PSO: unreachable: both are multi-copy atomic (a store reaches
//   every other thread at once, when it reaches memory) and neither
//   reorders loads.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int a, b, c, d;

void *w0(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    return NULL;
}

void *w1(void *arg) {
    atomic_store_explicit(&y, 1, memory_order_relaxed);
    return NULL;
}

void *r0(void *arg) {
    a = atomic_load_explicit(&x, memory_order_relaxed);
    b = atomic_load_explicit(&y, memory_order_relaxed);
    return NULL;
}

void *r1(void *arg) {
    c = atomic_load_explicit(&y, memory_order_relaxed);
    d = atomic_load_explicit(&x, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t t0, t1, t2, t3;
    pthread_create(&t0, NULL, w0, NULL);
    pthread_create(&t1, NULL, w1, NULL);
    pthread_create(&t2, NULL, r0, NULL);
    pthread_create(&t3, NULL, r1, NULL);
    pthread_join(t0, NULL);
    pthread_join(t1, NULL);
    pthread_join(t2, NULL);
    pthread_join(t3, NULL);
    assert(!(a == 1 && b == 0 && c == 1 && d == 0));
    return 0;
}
