// expect sc=unreachable tso=unreachable pso=unreachable
//
// A thread reads its own store back before it reaches memory, while
// another thread overwrites the variable: the first thread's read returns
// its own value or the other's later one, never the initial 0.
// SC: unreachable: the read follows the thread's own store.
// TSO and PSO: unreachable: the read takes the newest buffered store of
//   its own thread, or memory once the store has left the buffer, which
//   then holds 1 or 2.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x;

void *t0(void *arg) {
    atomic_store_explicit(&x, 1, memory_order_relaxed);
    int r = atomic_load_explicit(&x, memory_order_relaxed);
    assert(r != 0);
    return NULL;
}

void *t1(void *arg) {
    atomic_store_explicit(&x, 2, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, t0, NULL);
    pthread_create(&b, NULL, t1, NULL);
    return 0;
}
