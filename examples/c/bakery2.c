// expect sc=unreachable tso=reachable pso=reachable
//
// Lamport's bakery for two threads, one round each, relaxed atomics. A
// thread announces it is choosing, takes a number one above the largest it
// sees, and waits while the other is choosing or holds a smaller ticket
// (ties go to thread 0). The critical section counts its occupants.
// SC: unreachable: the bakery algorithm is correct under SC.
// TSO: reachable: both threads choose; each one's number store waits in
//   its buffer while the other reads number = 0 and choosing = 0 from
//   memory, so both take number 1 and both see the other's number as 0.
// PSO: reachable by the same execution.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int choosing[2];
atomic_int number[2];
atomic_int inside;

void *worker(void *arg) {
    int me = (int)(long)arg;
    int other = 1 - me;
    atomic_store_explicit(&choosing[me], 1, memory_order_relaxed);
    int a = atomic_load_explicit(&number[0], memory_order_relaxed);
    int b = atomic_load_explicit(&number[1], memory_order_relaxed);
    int mine = 1 + (a > b ? a : b);
    atomic_store_explicit(&number[me], mine, memory_order_relaxed);
    atomic_store_explicit(&choosing[me], 0, memory_order_relaxed);
    while (atomic_load_explicit(&choosing[other], memory_order_relaxed) == 1) {
    }
    for (;;) {
        int theirs = atomic_load_explicit(&number[other], memory_order_relaxed);
        if (theirs == 0 || theirs > mine || (theirs == mine && me < other)) {
            break;
        }
    }
    int before = atomic_fetch_add(&inside, 1);
    assert(before == 0);
    atomic_fetch_sub(&inside, 1);
    atomic_store_explicit(&number[me], 0, memory_order_relaxed);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, (void *)0);
    pthread_create(&b, NULL, worker, (void *)1);
    return 0;
}
