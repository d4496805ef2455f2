// expect sc=unreachable tso=unreachable pso=reachable
//
// A sequence lock: the writer makes the sequence odd, writes two data
// words, makes it even again; a reader that sees the same even sequence
// before and after reading the data must have read a consistent pair.
// Relaxed stores and acquire loads (plain movs on x86).
// SC: unreachable: if the reader's two sequence loads read the same even
//   value, no write of the data lies between them.
// TSO: unreachable: stores leave in program order and loads are not
//   reordered, so the reader sees a prefix of the writer's stores.
// PSO: reachable: the final seq = 2 may reach memory before data2 = 1;
//   the reader reads seq = 2, data1 = 1, data2 = 0, seq = 2.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int seq;
atomic_int data1, data2;

void *writer(void *arg) {
    atomic_store_explicit(&seq, 1, memory_order_relaxed);
    atomic_store_explicit(&data1, 1, memory_order_relaxed);
    atomic_store_explicit(&data2, 1, memory_order_relaxed);
    atomic_store_explicit(&seq, 2, memory_order_release);
    return NULL;
}

void *reader(void *arg) {
    int s1 = atomic_load_explicit(&seq, memory_order_acquire);
    int d1 = atomic_load_explicit(&data1, memory_order_relaxed);
    int d2 = atomic_load_explicit(&data2, memory_order_relaxed);
    int s2 = atomic_load_explicit(&seq, memory_order_acquire);
    if (s1 == s2 && s1 % 2 == 0) {
        assert(d1 == d2);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, writer, NULL);
    pthread_create(&b, NULL, reader, NULL);
    return 0;
}
