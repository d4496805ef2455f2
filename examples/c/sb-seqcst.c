// expect sc=unreachable tso=unreachable pso=unreachable
//
// Store buffering with seq_cst stores and loads (atomic_store, atomic_load):
// tsoreach compiles a seq_cst store as x86 compilers do, a mov followed by
// an mfence (docs/c.md), so this is sb-fence.c.
// SC: unreachable (as sb.c).
// TSO and PSO: unreachable: each store is in memory before its thread's load.
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>

atomic_int x, y;
int r0, r1;

void *t0(void *arg) {
    atomic_store(&x, 1);
    r0 = atomic_load(&y);
    return NULL;
}

void *t1(void *arg) {
    atomic_store(&y, 1);
    r1 = atomic_load(&x);
    return NULL;
}

int main(void) {
    pthread_t a, b;
    pthread_create(&a, NULL, t0, NULL);
    pthread_create(&b, NULL, t1, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    assert(!(r0 == 0 && r1 == 0));
    return 0;
}
