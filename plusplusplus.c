#include <assert.h>
#include <pthread.h>
int x, y = 3, z = 3;
int r;
void *t(void *p) { int a = 2, b = 5; r = a+++b; r = r * 10 + a; return NULL; }
int main(void) { pthread_t th; pthread_create(&th, NULL, t, NULL); pthread_join(th, NULL); assert(r == 73); return 0; }
