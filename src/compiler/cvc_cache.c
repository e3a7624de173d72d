/* The on-disk cache of compiler outputs, content-addressed by a 128-bit FNV-1a hash of
 * everything that decides the output (source, headers, options, target, tool identities,
 * culvert's compiler version). The cache is an optimization only: a missing, corrupt or
 * unwritable entry is a miss, never an error. Entries are written to a temporary file and
 * renamed, so readers never see a partial entry. */
#include "compiler/cvc_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CVC_FNV_OFFSET                                                                             \
    (((unsigned __int128)0x6c62272e07bb0142ULL << 64) | (unsigned __int128)0x62b821756295c58dULL)
#define CVC_FNV_PRIME (((unsigned __int128)1 << 88) | (unsigned __int128)0x13b)

void cvc_hash_init(cvc_hasher *h) {
    h->h = CVC_FNV_OFFSET;
}

void cvc_hash_bytes(cvc_hasher *h, const void *p, size_t n) {
    const unsigned char *c = p;
    unsigned __int128 v = h->h;
    for (size_t i = 0; i < n; i++) {
        v ^= c[i];
        v *= CVC_FNV_PRIME;
    }
    h->h = v;
}

void cvc_hash_str(cvc_hasher *h, const char *s) {
    uint64_t len = s ? strlen(s) : UINT64_MAX;
    cvc_hash_bytes(h, &len, sizeof len);
    if (s)
        cvc_hash_bytes(h, s, (size_t)len);
}

cvc_hash cvc_hash_final(const cvc_hasher *h) {
    cvc_hash r = {(uint64_t)(h->h >> 64), (uint64_t)h->h};
    return r;
}

bool cvc_cache_dir(char *out, size_t size) {
    const char *off = getenv("CULVERT_CACHE");
    if (off && (!strcmp(off, "0") || !strcmp(off, "off") || !strcmp(off, "false")))
        return false;
    const char *dir = getenv("CULVERT_CACHE_DIR");
    int n = -1;
    if (dir && *dir)
        n = snprintf(out, size, "%s", dir);
    else if ((dir = getenv("XDG_CACHE_HOME")) && *dir)
        n = snprintf(out, size, "%s/culvert", dir);
    else if ((dir = getenv("HOME")) && *dir)
        n = snprintf(out, size, "%s/.cache/culvert", dir);
    return n > 0 && (size_t)n < size;
}

void cvc_mkdirs(const char *dir) {
    char path[4096];
    snprintf(path, sizeof path, "%s", dir);
    for (char *p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            mkdir(path, 0700);
            *p = '/';
        }
    mkdir(path, 0700);
}

static bool cvc_entry_path(cvc_hash key, char *out, size_t size) {
    char dir[4096];
    if (!cvc_cache_dir(dir, sizeof dir))
        return false;
    int n = snprintf(out, size, "%s/%016llx%016llx.cvc", dir, (unsigned long long)key.hi,
                     (unsigned long long)key.lo);
    return n > 0 && (size_t)n < size;
}

/* Entry layout: magic, key, sizes, data, log, dependencies, FNV-1a of everything before.
 * The dependencies are the files the source #included from outside the build (-I
 * directories): lines "<hash> <path>"; an entry whose files changed is a miss. */
#define CVC_MAGIC "CVCACHE2"
typedef struct cvc_entry_head {
    char magic[8];
    uint64_t key_hi, key_lo;
    uint64_t data_size, log_size, deps_size;
} cvc_entry_head;

static bool cvc_file_hash(const char *path, cvc_hash *out) {
    size_t len = 0;
    unsigned char *data = cvc_read_file(path, &len);
    if (!data)
        return false;
    cvc_hasher h;
    cvc_hash_init(&h);
    cvc_hash_bytes(&h, data, len);
    *out = cvc_hash_final(&h);
    free(data);
    return true;
}

/* Every "<hash> <path>" line still matches its file. */
static bool cvc_deps_current(const char *deps, size_t len) {
    const char *p = deps, *end = deps + len;
    while (p < end) {
        const char *eol = memchr(p, '\n', (size_t)(end - p));
        if (!eol || eol - p < 34 || p[32] != ' ')
            return false;
        char path[4096], hex[33];
        size_t n = (size_t)(eol - p) - 33;
        if (n >= sizeof path)
            return false;
        memcpy(path, p + 33, n);
        path[n] = 0;
        memcpy(hex, p, 32);
        hex[32] = 0;
        cvc_hash h;
        char now[33];
        if (!cvc_file_hash(path, &h))
            return false;
        snprintf(now, sizeof now, "%016llx%016llx", (unsigned long long)h.hi,
                 (unsigned long long)h.lo);
        if (strcmp(now, hex))
            return false;
        p = eol + 1;
    }
    return true;
}

char *cvc_deps_text(const char *depfile, const char *skip_dir) {
    size_t len = 0;
    char *d = (char *)cvc_read_file(depfile, &len);
    if (!d)
        return NULL;
    cvc_buf b = {0};
    bool ok = true;
    /* "target: dep dep \<newline> dep": escaped blanks ("\ ") belong to the path. */
    char *colon = strchr(d, ':');
    char *p = colon ? colon + 1 : d + len;
    while (ok && *p) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || (*p == '\\' && p[1] == '\n'))
            p += *p == '\\' ? 2 : 1;
        if (!*p)
            break;
        char path[4096];
        size_t n = 0;
        while (*p && *p != ' ' && *p != '\t' && *p != '\n' && n + 1 < sizeof path) {
            if (*p == '\\' && (p[1] == ' ' || p[1] == '#'))
                p++;
            else if (*p == '\\' && p[1] == '\n')
                break;
            path[n++] = *p++;
        }
        path[n] = 0;
        if (n == 0)
            continue;
        if (!strncmp(path, skip_dir, strlen(skip_dir)))
            continue; /* the source and embedded headers: already in the key */
        cvc_hash h;
        ok = cvc_file_hash(path, &h);
        if (ok)
            cvc_buf_printf(&b, "%016llx%016llx %s\n", (unsigned long long)h.hi,
                           (unsigned long long)h.lo, path);
    }
    free(d);
    if (!ok) {
        free(b.data);
        return NULL;
    }
    return cvc_buf_take(&b);
}

bool cvc_cache_load(cvc_hash key, cvc_output *out) {
    char path[4200];
    size_t len = 0;
    if (!cvc_entry_path(key, path, sizeof path))
        return false;
    unsigned char *file = cvc_read_file(path, &len);
    bool ok = false;
    cvc_entry_head h;
    if (file && len >= sizeof h + sizeof(cvc_hash)) {
        memcpy(&h, file, sizeof h);
        size_t body = len - sizeof h - sizeof(cvc_hash);
        ok = !memcmp(h.magic, CVC_MAGIC, 8) && h.key_hi == key.hi && h.key_lo == key.lo &&
             h.data_size <= body && h.log_size <= body - h.data_size &&
             h.deps_size == body - h.data_size - h.log_size;
    }
    if (ok) {
        cvc_hasher hs;
        cvc_hash_init(&hs);
        cvc_hash_bytes(&hs, file, len - sizeof(cvc_hash));
        cvc_hash sum = cvc_hash_final(&hs), stored;
        memcpy(&stored, file + len - sizeof stored, sizeof stored);
        ok =
            sum.hi == stored.hi && sum.lo == stored.lo &&
            cvc_deps_current((const char *)file + sizeof h + h.data_size + h.log_size, h.deps_size);
    }
    if (ok) {
        out->data = malloc(h.data_size + 1);
        out->log = malloc(h.log_size + 1);
        ok = out->data && out->log;
        if (ok) {
            memcpy(out->data, file + sizeof h, h.data_size);
            out->data[h.data_size] = 0;
            memcpy(out->log, file + sizeof h + h.data_size, h.log_size);
            out->log[h.log_size] = 0;
            out->size = h.data_size;
        } else {
            cvc_output_free(out);
        }
    }
    free(file);
    return ok;
}

void cvc_unique_tmp(const char *path, char *out, size_t size) {
    /* Processes, and threads of one process, may write the same file at once. */
    static _Atomic unsigned long seq;
    snprintf(out, size, "%.4300s.%ld.%lu.tmp", path, (long)getpid(), (unsigned long)++seq);
}

void cvc_cache_write(const char *path, const void *data, size_t len) {
    char dir[4096], tmp[4400];
    if (!cvc_cache_dir(dir, sizeof dir))
        return;
    cvc_mkdirs(dir);
    cvc_unique_tmp(path, tmp, sizeof tmp);
    if (!cvc_write_file(tmp, data, len) || rename(tmp, path) != 0)
        unlink(tmp);
}

void cvc_cache_store(cvc_hash key, const cvc_output *out, const char *deps) {
    char path[4200], dir[4096];
    if (!cvc_entry_path(key, path, sizeof path) || !cvc_cache_dir(dir, sizeof dir))
        return;
    cvc_mkdirs(dir);
    size_t log_size = out->log ? strlen(out->log) : 0;
    cvc_entry_head h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, CVC_MAGIC, 8);
    h.key_hi = key.hi;
    h.key_lo = key.lo;
    h.data_size = out->size;
    h.log_size = log_size;
    h.deps_size = deps ? strlen(deps) : 0;
    cvc_buf b = {0};
    cvc_buf_add(&b, &h, sizeof h);
    cvc_buf_add(&b, out->data, out->size);
    cvc_buf_add(&b, out->log ? out->log : "", log_size);
    cvc_buf_add(&b, deps ? deps : "", h.deps_size);
    if (b.failed) {
        free(b.data);
        return;
    }
    cvc_hasher hs;
    cvc_hash_init(&hs);
    cvc_hash_bytes(&hs, b.data, b.len);
    cvc_hash sum = cvc_hash_final(&hs);
    cvc_buf_add(&b, &sum, sizeof sum);
    char unique[4400];
    cvc_unique_tmp(path, unique, sizeof unique);
    if (!b.failed && cvc_write_file(unique, b.data, b.len)) {
        if (rename(unique, path) != 0)
            unlink(unique);
    } else {
        unlink(unique);
    }
    free(b.data);
}
