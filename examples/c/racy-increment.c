// expect sc=reachable tso=reachable pso=reachable
//
// Two threads increment a plain counter without a lock; main checks the
// total after joining them.
// SC: reachable: both threads read 0, then both write 1.
// TSO and PSO: reachable by the same interleaving.
#include <assert.h>
#include <pthread.h>

int counter;

void *worker(void *arg) {
    int c = counter;
    counter = c + 1;
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
