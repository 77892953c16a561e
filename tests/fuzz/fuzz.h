/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fuzz harnesses: each defines LLVMFuzzerTestOneInput. Built with
 * libFuzzer by `make fuzz`, and with replay.c into plain programs that
 * `make check` runs over the kept regression inputs.
 */
#ifndef RT_FUZZ_H
#define RT_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (the parsers take C strings). */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (s) {
		memcpy(s, data, size);
		s[size] = '\0';
	}
	return s;
}

#endif
