#include <assert.h>
#include <pthread.h>
int x, y = 3, z = 3;
int r;
void *t(void *p) { r = y - -z; return NULL; }
int main(void) { pthread_t th; pthread_create(&th, NULL, t, NULL); pthread_join(th, NULL); assert(r == 6); return 0; }
