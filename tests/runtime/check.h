/* check.h — PASS/FAIL reporting shared by the runtime tests. */
#ifndef PTXEMU_TESTS_RUNTIME_CHECK_H
#define PTXEMU_TESTS_RUNTIME_CHECK_H

#include <stdio.h>

static int t_failed;

#define CHECK(cond, name, ...)                                          \
    do {                                                                \
        if (cond) {                                                     \
            printf("PASS %s\n", name);                                  \
        } else {                                                        \
            printf("FAIL %s: ", name);                                  \
            printf(__VA_ARGS__);                                        \
            printf("\n");                                               \
            t_failed++;                                                 \
        }                                                               \
    } while (0)

#endif
