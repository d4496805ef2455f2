// expect sc=unreachable tso=unreachable pso=reachable
//
// A spin lock taken with atomic_exchange (a locked xchg) and released with
// a release store (a plain mov on x86), around a plain increment of a
// shared counter. Main checks that both increments happened.
// SC: unreachable: the lock serialises the two increments.
// TSO: unreachable: the xchg drains the taker's buffer, and the release
//   store reaches memory after the counter's store (one FIFO), so the next
//   holder reads the incremented counter.
// PSO: reachable: the release store to `lock` may reach memory before the
//   counter's store (separate FIFOs); the other thread takes the lock,
//   reads counter = 0 and both write 1.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int lock;
int counter;

void *worker(void *arg) {
    while (atomic_exchange(&lock, 1) == 1) {
    }
    counter = counter + 1;
    atomic_store_explicit(&lock, 0, memory_order_release);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(counter == 2);
    return 0;
}
