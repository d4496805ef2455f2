#include <assert.h>
#include <pthread.h>
int x, y = 3, z = 3;
int r;
void *t(void *p) { r = !x && y || z - 3; return NULL; }
int main(void) { pthread_t th; pthread_create(&th, NULL, t, NULL); pthread_join(th, NULL); assert(r == 1); return 0; }
