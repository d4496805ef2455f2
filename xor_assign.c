#include <assert.h>
#include <pthread.h>
int x, y = 3, z = 3;
int r;
void *t(void *p) { r = 6; r ^= 3; r |= 8; r &= 13; return NULL; }
int main(void) { pthread_t th; pthread_create(&th, NULL, t, NULL); pthread_join(th, NULL); assert(r == 13); return 0; }
