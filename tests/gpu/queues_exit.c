/* Exit with work in flight: a stream gated forever on a user event (200 commands behind it: a
 * stream held on the GPU takes only so many before enqueueing blocks), thousands of commands with
 * events and callbacks outstanding, queues and events never released. The process must end at
 * once, cleanly (a hang fails by the test's timeout, a crash by its status). */
#include "queue_test.h"

static void CL_CALLBACK ignore(cl_event e, cl_int status, void *data) {
    (void)e;
    (void)status;
    (void)data;
}

int main(int argc, char **argv) {
    qt_setup();
    if (argc > 1) {
        /* child: leave everything in flight and return from main */
        cl_command_queue q = qt_queue(0), ooo = qt_queue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
        /* "child-nogate": no user event; "child-set": the gate opened before returning */
        bool gate = strcmp(argv[1], "child-nogate") != 0;
        cl_event u = gate ? qt_user_event() : NULL;
        cl_event gated = gate ? qt_marker(q, 1, &u) : NULL;
        int count = argc > 2 ? atoi(argv[2]) : 4000;
        for (int i = 0; i < count; i++) {
            if (i % 500 == 0)
                fprintf(stderr, "child: %d markers\n", i);
            cl_event e = qt_marker(i % 20 == 1 ? q : ooo, 0, NULL);
            clSetEventCallback(e, CL_COMPLETE, ignore, NULL);
            if (i % 2 == 0)
                clReleaseEvent(e);
        }
        (void)gated;
        if (strcmp(argv[1], "child-set") == 0)
            clSetUserEventStatus(u, CL_COMPLETE);
        fprintf(stderr, "child: returning from main with work in flight\n");
        return 0;
    }
    /* parent: run the child, check it ended well and soon */
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "%s child", argv[0]);
    double t0 = qt_now();
    int status = system(cmd);
    double took = qt_now() - t0;
    printf("child exited with %d after %.3f s\n", status, took);
    CHECK(status == 0);
    CHECK(took < 30.0);
    clReleaseContext(qt_context);
    return cv_test_report("queues_exit");
}
