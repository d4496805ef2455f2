// expect sc=unreachable tso=unreachable pso=reachable
//
// Message passing with relaxed atomics: t0 writes the data, then the flag;
// t1 reads the flag, then the data. The assertion fails when t1 sees the
// flag but not the data.
// SC: unreachable: the data store precedes the flag store, which precedes
//   t1's flag load, which precedes its data load.
// TSO: unreachable: stores reach memory in program order (one FIFO) and
//   loads are not reordered, so the argument of SC holds.
// PSO: reachable: the flag store reaches memory before the data store (one
//   FIFO per address); t1 reads flag = 1, then data = 0.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int data, flag;

void *producer(void *arg) {
    atomic_store_explicit(&data, 42, memory_order_relaxed);
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
    return NULL;
}

void *consumer(void *arg) {
    if (atomic_load_explicit(&flag, memory_order_relaxed) == 1) {
        int d = atomic_load_explicit(&data, memory_order_relaxed);
        assert(d == 42);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, producer, NULL);
    pthread_create(&b, NULL, consumer, NULL);
    return 0;
}
