/* culvert-clc: the offline OpenCL C compiler. Same pipeline as clBuildProgram (src/compiler);
 * writes PTX that clCreateProgramWithBinary takes (on culvert or NVIDIA's OpenCL). */
#include "compiler/compiler.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f) {
    fputs("usage: culvert-clc [options] [OpenCL build options] file.cl... \n"
          "\n"
          "Compiles OpenCL C to PTX for NVIDIA GPUs with culvert's compiler (clang + libclc);\n"
          "a SPIR-V module (clCreateProgramWithIL's input) through llvm-spirv first.\n"
          "The PTX loads with clCreateProgramWithBinary and keeps kernel argument info.\n"
          "\n"
          "options:\n"
          "  -o FILE           output file (default: the input's name with .ptx, or .bc with -c)\n"
          "  --sm NN           target compute capability, e.g. 90 for sm_90 (default 90);\n"
          "                    also --sm=NN, -arch sm_NN, -arch=sm_NN\n"
          "  --images          for a device with image support: the image types and builtins\n"
          "                    (culvert's devices have them unless CULVERT_IMAGES=0; this\n"
          "                    tool compiles without them unless asked)\n"
          "  -c                compile only: an LLVM bitcode object (clCompileProgram)\n"
          "  --link            link the given .bc objects (clLinkProgram); with\n"
          "                    -create-library the result is a library object again\n"
          "  -h, --help        this text\n"
          "\n"
          "Every other argument starting with '-' is an OpenCL build option (-D NAME=VALUE,\n"
          "-I DIR, -cl-std=CL1.2, -cl-fast-relaxed-math, -cl-nv-maxrregcount=N, ...).\n"
          "Diagnostics go to stderr. Exit status: 0 success, 1 build failure, 2 usage error.\n"
          "\n"
          "environment: CULVERT_CLANG, CULVERT_LLVM_BIN, CULVERT_LIBCLC_DIR (tool locations),\n"
          "CULVERT_LLVM_SPIRV (llvm-spirv, for SPIR-V), CULVERT_CACHE_DIR, CULVERT_CACHE=0.\n",
          f);
}

static unsigned char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap + 1);
    while (buf) {
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n < cap)
            break;
        unsigned char *nb = realloc(buf, (cap *= 2) + 1);
        if (!nb)
            free(buf);
        buf = nb;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

static int parse_sm(const char *s, cvc_target *t) {
    if (!strncmp(s, "sm_", 3))
        s += 3;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 10 || v > 999)
        return -1;
    t->cc_major = (int)(v / 10);
    t->cc_minor = (int)(v % 10);
    return 0;
}

/* Build options that take their value as the next argument. */
static int takes_value(const char *a) {
    return !strcmp(a, "-D") || !strcmp(a, "-I") || !strcmp(a, "-cl-nv-maxrregcount") ||
           !strcmp(a, "-cl-nv-opt-level");
}

static void append(char **s, const char *word) {
    size_t old = *s ? strlen(*s) : 0;
    char *n = realloc(*s, old + strlen(word) + 4);
    if (!n)
        exit(2);
    if (old)
        n[old++] = ' ';
    /* Quote words with blanks so the option parser keeps them whole. */
    int quote = strchr(word, ' ') != NULL;
    size_t at = old;
    if (quote)
        n[at++] = '"';
    strcpy(n + at, word);
    at += strlen(word);
    if (quote)
        n[at++] = '"';
    n[at] = 0;
    *s = n;
}

int main(int argc, char **argv) {
    const char *output = NULL;
    cvc_target target = {.cc_major = 9, .cc_minor = 0};
    char *options = NULL;
    const char **inputs = calloc((size_t)argc, sizeof *inputs);
    int num_inputs = 0, compile_only = 0, link = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-o") && i + 1 < argc) {
            output = argv[++i];
        } else if ((!strcmp(a, "--sm") || !strcmp(a, "-arch")) && i + 1 < argc) {
            if (parse_sm(argv[++i], &target)) {
                fprintf(stderr, "culvert-clc: bad target '%s'\n", argv[i]);
                return 2;
            }
        } else if (!strncmp(a, "--sm=", 5) || !strncmp(a, "-arch=", 6)) {
            if (parse_sm(strchr(a, '=') + 1, &target)) {
                fprintf(stderr, "culvert-clc: bad target '%s'\n", a);
                return 2;
            }
        } else if (!strcmp(a, "--images")) {
            target.images = true;
        } else if (!strcmp(a, "-c")) {
            compile_only = 1;
        } else if (!strcmp(a, "--link")) {
            link = 1;
        } else if (a[0] == '-' && a[1]) {
            append(&options, a);
            if (takes_value(a) && i + 1 < argc)
                append(&options, argv[++i]);
        } else {
            inputs[num_inputs++] = a;
        }
    }
    if (num_inputs == 0 || (!link && num_inputs != 1) || (link && compile_only)) {
        usage(stderr);
        return 2;
    }
    cvc_output out = {0};
    cl_int err;
    bool library = false;
    if (link) {
        cvc_output *objs = calloc((size_t)num_inputs, sizeof *objs);
        const cvc_output **ptrs = calloc((size_t)num_inputs, sizeof *ptrs);
        for (int i = 0; i < num_inputs; i++) {
            objs[i].data = read_all(inputs[i], &objs[i].size);
            if (!objs[i].data) {
                fprintf(stderr, "culvert-clc: cannot read %s\n", inputs[i]);
                return 1;
            }
            ptrs[i] = &objs[i];
        }
        err = cvc_link(ptrs, (size_t)num_inputs, options, &target, &library, &out);
    } else {
        size_t len = 0;
        char *src = (char *)read_all(inputs[0], &len);
        if (!src) {
            fprintf(stderr, "culvert-clc: cannot read %s\n", inputs[0]);
            return 1;
        }
        const unsigned char *il = (const unsigned char *)src;
        if (cvc_is_spirv(il, len))
            err = compile_only ? cvc_compile_il(il, len, options, NULL, &target, &out)
                               : cvc_build_il(il, len, options, NULL, &target, &out);
        else
            err = compile_only ? cvc_compile(src, len, options, NULL, 0, &target, &out)
                               : cvc_build(src, len, options, &target, &out);
        free(src);
    }
    if (out.log && *out.log)
        fputs(out.log, stderr);
    if (err != CL_SUCCESS) {
        fprintf(stderr, "culvert-clc: %s failed (OpenCL error %d)\n",
                link           ? "link"
                : compile_only ? "compilation"
                               : "build",
                (int)err);
        cvc_output_free(&out);
        return 1;
    }
    char *path = NULL;
    if (!output) {
        const char *in = inputs[0];
        const char *dot = strrchr(in, '.');
        size_t base = dot && !strchr(dot, '/') ? (size_t)(dot - in) : strlen(in);
        path = malloc(base + 5);
        memcpy(path, in, base);
        strcpy(path + base, compile_only || library ? ".bc" : ".ptx");
        output = path;
    }
    FILE *f = !strcmp(output, "-") ? stdout : fopen(output, "wb");
    int rc = 0;
    if (!f || fwrite(out.data, 1, out.size, f) != out.size) {
        fprintf(stderr, "culvert-clc: cannot write %s\n", output);
        rc = 1;
    }
    if (f && f != stdout && fclose(f) != 0)
        rc = 1;
    free(path);
    cvc_output_free(&out);
    return rc;
}
