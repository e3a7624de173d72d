/* Many host threads enqueue at once: to one shared queue (in order and out of order) and each
 * to its own, with wait lists on each other's events, callbacks, waits and clFinish. */
#include "queue_test.h"

#include <stdatomic.h>

#define THREADS 8
#define ROUNDS  2000

static cl_command_queue shared_inorder, shared_ooo;
static _Atomic(cl_event) last_event[THREADS];
static atomic_int completions, failures;

static void CL_CALLBACK count(cl_event e, cl_int status, void *data) {
    (void)e;
    (void)data;
    atomic_fetch_add(status == CL_COMPLETE ? &completions : &failures, 1);
}

static void *worker(void *arg) {
    int id = (int)(intptr_t)arg;
    cl_int err = CL_SUCCESS;
    cl_command_queue own = clCreateCommandQueueWithProperties(qt_context, qt_device, NULL, &err);
    if (err != CL_SUCCESS)
        atomic_fetch_add(&failures, 1);
    for (int i = 0; i < ROUNDS && own; i++) {
        cl_command_queue q = i % 3 == 0 ? shared_inorder : i % 3 == 1 ? shared_ooo : own;
        /* wait for the newest event of the next thread, if any */
        cl_event dep = atomic_exchange(&last_event[(id + 1) % THREADS], NULL);
        cl_event e = NULL;
        err = clEnqueueMarkerWithWaitList(q, dep ? 1 : 0, dep ? &dep : NULL, &e);
        if (dep)
            clReleaseEvent(dep);
        if (err != CL_SUCCESS) {
            atomic_fetch_add(&failures, 1);
            continue;
        }
        if (i % 7 == 0)
            clSetEventCallback(e, CL_COMPLETE, count, NULL);
        if (i % 50 == 0 && clWaitForEvents(1, &e) != CL_SUCCESS)
            atomic_fetch_add(&failures, 1);
        if (i % 200 == 0 && clFinish(q) != CL_SUCCESS)
            atomic_fetch_add(&failures, 1);
        cl_event old = atomic_exchange(&last_event[id], e);
        if (old)
            clReleaseEvent(old);
    }
    if (own) {
        clFinish(own);
        clReleaseCommandQueue(own);
    }
    return NULL;
}

int main(void) {
    qt_setup();
    shared_inorder = qt_queue(0);
    shared_ooo = qt_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE);
    pthread_t t[THREADS];
    double t0 = qt_now();
    for (int i = 0; i < THREADS; i++) {
        int rc = pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
        REQUIRE(rc == 0);
    }
    for (int i = 0; i < THREADS; i++)
        pthread_join(t[i], NULL);
    CHECK_ERR(CL_SUCCESS, clFinish(shared_inorder));
    CHECK_ERR(CL_SUCCESS, clFinish(shared_ooo));
    for (int i = 0; i < THREADS; i++) {
        cl_event e = atomic_exchange(&last_event[i], NULL);
        if (e) {
            CHECK_ERR(CL_SUCCESS, clWaitForEvents(1, &e));
            clReleaseEvent(e);
        }
    }
    int expected = THREADS * ((ROUNDS + 6) / 7);
    double end = qt_now() + cv_test_limit_s(5.0);
    while (atomic_load(&completions) < expected && qt_now() < end)
        usleep(1000);
    printf("%d threads x %d commands in %.3f s\n", THREADS, ROUNDS, qt_now() - t0);
    CHECK(atomic_load(&failures) == 0);
    CHECK(atomic_load(&completions) == expected);
    clReleaseCommandQueue(shared_inorder);
    clReleaseCommandQueue(shared_ooo);
    clReleaseContext(qt_context);
    return cv_test_report("queues_threads");
}
