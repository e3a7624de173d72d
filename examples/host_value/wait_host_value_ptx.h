/* PTX of wait_host_value(hv, seen, target), shared by examples/host_value/kernel_poll.c and
 * tests/gpu/host_value_kernel.c: spins until (int64)(*hv - target) >= 0, or about 10 s, then stores
 * into *seen the value it saw (all ones on a timeout). OpenCL C equivalent:
 *   kernel void wait_host_value(global volatile ulong *hv, global volatile ulong *seen,
 *                               ulong target)
 *   { ulong v; while ((long)((v = *hv) - target) < 0) {} *seen = v; }
 * (plus the time limit, read from %globaltimer). */
#ifndef CULVERT_WAIT_HOST_VALUE_PTX_H
#define CULVERT_WAIT_HOST_VALUE_PTX_H

/* The module header: PTX 7.0 for sm_75 and newer. */
#define CV_HOST_VALUE_PTX_HEADER                                                                   \
    ".version 7.0\n"                                                                               \
    ".target sm_75\n"                                                                              \
    ".address_size 64\n"

#define CV_WAIT_HOST_VALUE_PTX                                                                     \
    "// wait_host_value(hv, seen, target): spins until (int64)(*hv - target) >= 0, or until "      \
    "about\n"                                                                                      \
    "// 10 s have passed; then stores into *seen the value it saw (all ones on a timeout).\n"      \
    ".visible .entry wait_host_value(\n"                                                           \
    "    .param .u64 hv,\n"                                                                        \
    "    .param .u64 seen,\n"                                                                      \
    "    .param .u64 target\n"                                                                     \
    ")\n"                                                                                          \
    "{\n"                                                                                          \
    "    .reg .pred %p<3>;\n"                                                                      \
    "    .reg .b64 %rd<10>;\n"                                                                     \
    "    ld.param.u64 %rd1, [hv];\n"                                                               \
    "    ld.param.u64 %rd2, [seen];\n"                                                             \
    "    ld.param.u64 %rd3, [target];\n"                                                           \
    "    cvta.to.global.u64 %rd1, %rd1;\n"                                                         \
    "    cvta.to.global.u64 %rd2, %rd2;\n"                                                         \
    "    mov.u64 %rd4, %globaltimer;\n"                                                            \
    "    add.u64 %rd5, %rd4, 10000000000;\n"                                                       \
    "SPIN:\n"                                                                                      \
    "    ld.volatile.global.u64 %rd6, [%rd1];\n"                                                   \
    "    sub.s64 %rd7, %rd6, %rd3;\n"                                                              \
    "    setp.ge.s64 %p1, %rd7, 0;\n"                                                              \
    "    @%p1 bra DONE;\n"                                                                         \
    "    mov.u64 %rd8, %globaltimer;\n"                                                            \
    "    setp.lt.u64 %p2, %rd8, %rd5;\n"                                                           \
    "    @%p2 bra SPIN;\n"                                                                         \
    "    mov.u64 %rd6, 0xffffffffffffffff;\n"                                                      \
    "DONE:\n"                                                                                      \
    "    st.volatile.global.u64 [%rd2], %rd6;\n"                                                   \
    "    ret;\n"                                                                                   \
    "}\n"

#endif
