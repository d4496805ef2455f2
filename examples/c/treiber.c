// expect sc=unreachable tso=unreachable pso=unreachable
//
// A Treiber stack over an array of nodes (node 0 is the empty stack): one
// thread pushes node 1 with value 42, another pops once. Push links the
// node with plain stores, then publishes it with compare-and-swap on top;
// pop reads top and the node's link, swings top with compare-and-swap and
// reads the value. The assertion fails when the popped value is not 42.
// Push's CAS cannot fail: only pop changes top, and only after a push.
// SC: unreachable: the value is stored before the CAS that publishes node 1.
// TSO and PSO: unreachable: the CAS is a locked instruction, which drains
//   the pusher's buffers, so the value is in memory before top = 1.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int top;
int next[2];
int value[2];

void *pusher(void *arg) {
    int node = 1;
    value[node] = 42;
    int old = atomic_load_explicit(&top, memory_order_relaxed);
    next[node] = old;
    atomic_compare_exchange_strong(&top, &old, node);
    return NULL;
}

void *popper(void *arg) {
    int t = atomic_load_explicit(&top, memory_order_acquire);
    if (t != 0) {
        int n = next[t];
        if (atomic_compare_exchange_strong(&top, &t, n)) {
            assert(value[t] == 42);
        }
    }
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, pusher, NULL);
    pthread_create(&b, NULL, popper, NULL);
    return 0;
}
