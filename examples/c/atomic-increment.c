// expect sc=unreachable tso=unreachable pso=unreachable
//
// racy-increment.c with an _Atomic counter: `counter++` on an atomic is a
// locked read-modify-write (lock xadd), and the initial value comes from
// main before the threads start.
// SC, TSO and PSO: unreachable: each increment reads and writes memory at
//   once, with the buffers drained, so none is lost: 5 + 2 = 7.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int counter;

void *worker(void *arg) {
    counter++;
    return NULL;
}

int main(void) {
    atomic_init(&counter, 5);
    pthread_t a, b;
    pthread_create(&a, NULL, worker, NULL);
    pthread_create(&b, NULL, worker, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(counter == 7);
    return 0;
}
