// expect sc=unreachable tso=unreachable pso=unreachable
//
// Message passing (mp.c) with a seq_cst fence between the producer's two
// stores.
// SC, TSO: unreachable (as mp.c).
// PSO: unreachable: the fence drains every FIFO of the producer, so the
//   data is in memory before the flag store is even issued.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int data, flag;

void *producer(void *arg) {
    atomic_store_explicit(&data, 42, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
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
