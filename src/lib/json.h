/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RT_JSON_H
#define RT_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/*
 * A JSON writer to a stream: objects and arrays nest, commas and
 * indentation are kept, strings are escaped. A key is given with every value
 * inside an object and NULL inside an array. The writer is a handle:
 * rt_json_new() makes it, rt_json_finish() ends the document and frees it.
 */
struct rt_json;

struct rt_json *rt_json_new(FILE *out);
void rt_json_object(struct rt_json *j, const char *key);
void rt_json_array(struct rt_json *j, const char *key);
void rt_json_end(struct rt_json *j);
void rt_json_str(struct rt_json *j, const char *key, const char *value);
void rt_json_int(struct rt_json *j, const char *key, int64_t value);
void rt_json_uint(struct rt_json *j, const char *key, uint64_t value);
void rt_json_double(struct rt_json *j, const char *key, double value);
void rt_json_bool(struct rt_json *j, const char *key, bool value);
void rt_json_null(struct rt_json *j, const char *key);
void rt_json_int_or_null(struct rt_json *j, const char *key, int64_t value, bool present);
int rt_json_finish(struct rt_json *j);

#endif
