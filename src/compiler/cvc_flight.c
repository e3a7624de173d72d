/* Builds of one source at once in one process. The CTS's thread pools (integer_ops, conversions)
 * build the same program on every thread at the same moment: without this each thread pays a
 * cold build, 16 of them on a 16-core machine. The first thread builds; the others wait for it
 * and then find its result in the cache. */
#include "compiler/cvc_internal.h"

#include <pthread.h>
#include <stdlib.h>

typedef struct cvc_flight {
    cvc_hash key;
    struct cvc_flight *next;
} cvc_flight;

static pthread_mutex_t cvc_flights_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cvc_flights_landed = PTHREAD_COND_INITIALIZER;
static cvc_flight *cvc_flights;

static bool cvc_flight_flying(cvc_hash key) {
    for (cvc_flight *f = cvc_flights; f; f = f->next)
        if (f->key.hi == key.hi && f->key.lo == key.lo)
            return true;
    return false;
}

bool cvc_flight_begin(cvc_hash key) {
    bool claimed = false, waited = false;
    pthread_mutex_lock(&cvc_flights_lock);
    while (cvc_flight_flying(key)) {
        waited = true;
        pthread_cond_wait(&cvc_flights_landed, &cvc_flights_lock);
    }
    cvc_flight *f = waited ? NULL : malloc(sizeof *f);
    if (f) {
        f->key = key;
        f->next = cvc_flights;
        cvc_flights = f;
        claimed = true;
    }
    pthread_mutex_unlock(&cvc_flights_lock);
    return claimed;
}

void cvc_flight_end(cvc_hash key) {
    pthread_mutex_lock(&cvc_flights_lock);
    for (cvc_flight **p = &cvc_flights; *p; p = &(*p)->next)
        if ((*p)->key.hi == key.hi && (*p)->key.lo == key.lo) {
            cvc_flight *f = *p;
            *p = f->next;
            free(f);
            break;
        }
    pthread_cond_broadcast(&cvc_flights_landed);
    pthread_mutex_unlock(&cvc_flights_lock);
}
