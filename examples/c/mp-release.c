// expect sc=unreachable tso=unreachable pso=reachable
//
// Message passing with a release store and an acquire load, translated as
// x86 compilers translate them: a plain mov and a plain load (docs/c.md).
// The program is correct in C11, and under TSO, which is x86's model; PSO
// is not x86, and the x86 code breaks there.
// SC, TSO: unreachable (as mp.c).
// PSO: reachable (as mp.c): nothing orders the two stores' FIFOs.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

int data;
atomic_int flag;

void *producer(void *arg) {
    data = 42;
    atomic_store_explicit(&flag, 1, memory_order_release);
    return NULL;
}

void *consumer(void *arg) {
    while (atomic_load_explicit(&flag, memory_order_acquire) == 0) {
    }
    assert(data == 42);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, producer, NULL);
    pthread_create(&b, NULL, consumer, NULL);
    return 0;
}
