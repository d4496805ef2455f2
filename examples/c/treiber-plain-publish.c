// expect sc=unreachable tso=unreachable pso=reachable
//
// The Treiber push of treiber.c publishing node 1 with a relaxed store
// instead of a compare-and-swap (correct for one pusher under SC), and a
// pop that only reads.
// SC: unreachable: the value is stored before top = 1.
// TSO: unreachable: the value's store reaches memory before top's (FIFO).
// PSO: reachable: top = 1 overtakes value[1] = 42; the popper reads
//   top = 1 and value[1] = 0.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int top;
int next[2];
int value[2];

void *pusher(void *arg) {
    value[1] = 42;
    next[1] = atomic_load_explicit(&top, memory_order_relaxed);
    atomic_store_explicit(&top, 1, memory_order_release);
    return NULL;
}

void *popper(void *arg) {
    int t = atomic_load_explicit(&top, memory_order_acquire);
    if (t != 0) {
        assert(value[t] == 42);
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, pusher, NULL);
    pthread_create(&b, NULL, popper, NULL);
    return 0;
}
