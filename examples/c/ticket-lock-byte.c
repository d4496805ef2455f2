// expect sc=unreachable tso=unreachable pso=reachable
//
// The ticket lock of ticket-lock.c with one-byte tickets that start at 255,
// so the second ticket wraps around to 0 (unsigned char arithmetic, as in a
// lock that packs its tickets into a byte). The first thread takes ticket
// 255 and serves (unsigned char)(255 + 1) = 0 when it leaves, which is the
// second thread's ticket.
// SC: unreachable: tickets are distinct (255 and 0), so the critical
//   sections run one after the other, and each reads the other's increment.
// TSO: unreachable: the counter's store reaches memory before the store of
//   now_serving (one FIFO), so the next ticket holder reads it.
// PSO: reachable: now_serving's store overtakes the counter's store; the
//   second thread enters, reads counter = 0, and both write 1. Without the
//   wrap-around the second ticket would be 256, never served: no thread
//   would get past the other, and the assertion would be unreachable.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_uchar next_ticket = 255;
atomic_uchar now_serving = 255;
int counter;

void *worker(void *arg) {
    unsigned char my = atomic_fetch_add(&next_ticket, 1);
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
