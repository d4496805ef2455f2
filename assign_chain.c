#include <assert.h>
#include <pthread.h>
int x, y = 3, z = 3;
int r;
void *t(void *p) { x = y = 7; r = x + y; return NULL; }
int main(void) { pthread_t th; pthread_create(&th, NULL, t, NULL); pthread_join(th, NULL); assert(r == 14); return 0; }
