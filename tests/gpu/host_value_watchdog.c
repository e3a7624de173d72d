/* The deadlock aid: with CULVERT_LOG on, a wait that stays unmet longer than
 * CULVERT_HOST_VALUE_WARN_MS is reported on stderr (naming its value), one that is met in time is
 * not, and the end of a reported wait is logged too. */
#include "host_value_common.h"

#include <stdlib.h>
#include <unistd.h>

#define STUCK_VALUE 1234567 /* the wait that is signalled late: warned about */
#define QUICK_VALUE 7654321 /* met from the start: never warned about */
#define WARN_MS     200     /* 1000 under the fake driver, whose stream threads may start late */

int main(void) {
    /* Read by culvert when the loader first loads it, i.e. at the first OpenCL call below. */
    int warn_ms = cv_test_fake_cuda() ? 5 * WARN_MS : WARN_MS;
    char warn[16];
    snprintf(warn, sizeof warn, "%d", warn_ms);
    setenv("CULVERT_LOG", "error", 1);
    setenv("CULVERT_HOST_VALUE_WARN_MS", warn, 1);
    hv_test t;
    hv_test_setup(&t);
    /* culvert logs to stderr: catch it in a file. */
    char path[] = "/tmp/culvert_watchdog_XXXXXX";
    int log_fd = mkstemp(path);
    REQUIRE(log_fd >= 0);
    unlink(path);
    fflush(stderr);
    int saved_stderr = dup(2);
    REQUIRE(saved_stderr >= 0 && dup2(log_fd, 2) == 2);

    cl_command_queue q = hv_queue(&t, 0);
    cl_mem stuck = hv_new(&t, 0), quick = hv_new(&t, QUICK_VALUE);
    CHECK_ERR(CL_SUCCESS,
              t.enqueue_wait(q, quick, QUICK_VALUE, CL_HOST_VALUE_EQ_CULVERT, 0, NULL, NULL));
    CHECK_ERR(CL_SUCCESS,
              t.enqueue_wait(q, stuck, STUCK_VALUE, CL_HOST_VALUE_GEQ_CULVERT, 0, NULL, NULL));
    cl_event marker = hv_marker(q);
    hv_sleep_ms(4 * warn_ms);
    CHECK(hv_status(marker) > CL_COMPLETE);
    CHECK_ERR(CL_SUCCESS, t.signal(stuck, STUCK_VALUE));
    CHECK(hv_completes(marker, 5000));
    CHECK_ERR(CL_SUCCESS, clFinish(q));
    /* The watcher notices the end within a period (warn_ms / 4) or two. */
    char log[16384] = "";
    double end = hv_now_s() + cv_test_limit_s(2.0 * warn_ms / 1000);
    do {
        hv_sleep_ms(warn_ms / 4);
        fflush(stderr);
        ssize_t n = pread(log_fd, log, sizeof log - 1, 0);
        log[n > 0 ? n : 0] = '\0';
    } while (!strstr(log, "is over after") && hv_now_s() < end);
    dup2(saved_stderr, 2);
    fprintf(stderr, "culvert's log:\n%s", log);
    const char *warning = strstr(log, "1234567");
    CHECK(warning != NULL);
    CHECK(strstr(log, "warning") != NULL);
    CHECK(strstr(log, "GEQ") != NULL);
    CHECK(strstr(log, "7654321") == NULL);
    CHECK(strstr(log, "is over after") != NULL);

    clReleaseEvent(marker);
    clReleaseMemObject(stuck);
    clReleaseMemObject(quick);
    clReleaseCommandQueue(q);
    clReleaseContext(t.context);
    close(log_fd);
    return cv_test_report("host_value_watchdog");
}
