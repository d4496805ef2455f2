// expect sc=unreachable tso=unreachable pso=unreachable
//
// Two threads increment a plain counter under a pthread mutex; main checks
// the total after joining them.
// SC: unreachable: the mutex serialises the increments.
// TSO and PSO: unreachable: pthread_mutex_unlock is a locked instruction,
//   which drains the buffers, so the next holder reads the increment.
#include <assert.h>
#include <pthread.h>

pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
int counter;

void *worker(void *arg) {
    pthread_mutex_lock(&m);
    counter = counter + 1;
    pthread_mutex_unlock(&m);
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
