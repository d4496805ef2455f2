// expect sc=unreachable tso=unreachable pso=reachable
//
// A ticket lock: take a ticket with atomic_fetch_add (lock xadd), wait
// until it is served, increment a plain counter, serve the next ticket with
// a release store (a plain mov). Main checks both increments.
// SC: unreachable: tickets are distinct, so the critical sections run one
//   after the other, and each reads the other's increment.
// TSO: unreachable: the counter's store reaches memory before the store of
//   now_serving (one FIFO), so the next ticket holder reads it.
// PSO: reachable: now_serving's store overtakes the counter's store; the
//   second thread enters, reads counter = 0, and both write 1.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int next_ticket;
atomic_int now_serving;
int counter;

void *worker(void *arg) {
    int my = atomic_fetch_add(&next_ticket, 1);
    while (atomic_load_explicit(&now_serving, memory_order_acquire) != my) {
    }
    counter++;
    atomic_store_explicit(&now_serving, my + 1, memory_order_release);
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
