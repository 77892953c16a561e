// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output (the files it goes to: outfile.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/json.h"

#define RT_JSON_DEPTH 16

struct rt_json {
	FILE *out;
	int depth;
	bool first[RT_JSON_DEPTH];	/* nothing written yet at this depth */
	char close[RT_JSON_DEPTH];	/* '}' or ']' for each open level */
	int err;			/* the first error: -EINVAL misuse, -EIO write */
};

/**
 * rt_json_new - a writer of one JSON document to @out
 *
 * Returns it, or NULL when memory is short.
 */
struct rt_json *rt_json_new(FILE *out)
{
	struct rt_json *j = calloc(1, sizeof(*j));

	if (!j)
		return NULL;
	j->out = out;
	j->first[0] = true;
	return j;
}

/*
 * The length of the valid UTF-8 sequence at @p (1-4), or 0 when it is not
 * one: a stray continuation byte, a truncated or overlong sequence, a
 * surrogate, or past U+10FFFF.
 */
static int utf8_len(const unsigned char *p)
{
	int n, i;
	unsigned int cp;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A JSON string. JSON is UTF-8: a byte that is not part of valid UTF-8 (a
 * file name in another encoding, say) is written as U+FFFD, so that the
 * document stays valid.
 */
static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n;

	fputc('"', out);
	while (*p) {
		n = utf8_len(p);
		if (!n) {
			fputs("\\ufffd", out);
			p++;
			continue;
		}
		if (n > 1) {
			fwrite(p, 1, (size_t)n, out);
		} else if (*p == '"' || *p == '\\') {
			fprintf(out, "\\%c", *p);
		} else if (*p == '\n') {
			fputs("\\n", out);
		} else if (*p == '\t') {
			fputs("\\t", out);
		} else if (*p < 0x20 || *p == 0x7f) {
			fprintf(out, "\\u%04x", *p);
		} else {
			fputc(*p, out);
		}
		p += n;
	}
	fputc('"', out);
}

/* The comma, newline, indentation and key before a value. */
static bool lead(struct rt_json *j, const char *key)
{
	bool in_object = j->depth && j->close[j->depth] == '}';

	if (j->err)
		return false;
	if (in_object != (key != NULL) || (!j->depth && !j->first[0])) {
		j->err = -EINVAL;	/* a key outside an object, or none inside one */
		return false;
	}
	if (!j->first[j->depth])
		fputc(',', j->out);
	if (j->depth)
		fprintf(j->out, "\n%*s", 2 * j->depth, "");
	j->first[j->depth] = false;
	if (key) {
		put_string(j->out, key);
		fputs(": ", j->out);
	}
	return true;
}

static void open_level(struct rt_json *j, const char *key, char open, char close)
{
	if (!lead(j, key))
		return;
	if (j->depth + 1 >= RT_JSON_DEPTH) {
		j->err = -EINVAL;
		return;
	}
	fputc(open, j->out);
	j->depth++;
	j->first[j->depth] = true;
	j->close[j->depth] = close;
}

/**
 * rt_json_object - open an object (@key inside an object, NULL elsewhere)
 */
void rt_json_object(struct rt_json *j, const char *key)
{
	open_level(j, key, '{', '}');
}

/**
 * rt_json_array - open an array (@key inside an object, NULL elsewhere)
 */
void rt_json_array(struct rt_json *j, const char *key)
{
	open_level(j, key, '[', ']');
}

/**
 * rt_json_end - close the innermost object or array
 */
void rt_json_end(struct rt_json *j)
{
	if (j->err)
		return;
	if (!j->depth) {
		j->err = -EINVAL;
		return;
	}
	if (!j->first[j->depth])
		fprintf(j->out, "\n%*s", 2 * (j->depth - 1), "");
	fputc(j->close[j->depth], j->out);
	j->depth--;
}

void rt_json_str(struct rt_json *j, const char *key, const char *value)
{
	if (!value) {
		rt_json_null(j, key);
		return;
	}
	if (lead(j, key))
		put_string(j->out, value);
}

void rt_json_int(struct rt_json *j, const char *key, int64_t value)
{
	if (lead(j, key))
		fprintf(j->out, "%lld", (long long)value);
}

void rt_json_uint(struct rt_json *j, const char *key, uint64_t value)
{
	if (lead(j, key))
		fprintf(j->out, "%llu", (unsigned long long)value);
}

/**
 * rt_json_double - a number with enough digits to read back the same double;
 * NaN and infinities, which JSON lacks, become null
 */
void rt_json_double(struct rt_json *j, const char *key, double value)
{
	if (!isfinite(value)) {
		rt_json_null(j, key);
		return;
	}
	if (lead(j, key))
		fprintf(j->out, "%.17g", value);
}

void rt_json_bool(struct rt_json *j, const char *key, bool value)
{
	if (lead(j, key))
		fputs(value ? "true" : "false", j->out);
}

void rt_json_null(struct rt_json *j, const char *key)
{
	if (lead(j, key))
		fputs("null", j->out);
}

/**
 * rt_json_int_or_null - @value when @present (an option in force), else null
 */
void rt_json_int_or_null(struct rt_json *j, const char *key, int64_t value, bool present)
{
	if (present)
		rt_json_int(j, key, value);
	else
		rt_json_null(j, key);
}

/**
 * rt_json_finish - end the document and free the writer
 *
 * Returns 0, -EINVAL when an object or array is left open or the calls did
 * not make a document, -EIO when writing failed.
 */
int rt_json_finish(struct rt_json *j)
{
	int err = j->err;

	if (!err && (j->depth || j->first[0]))
		err = -EINVAL;
	if (!err)
		fputc('\n', j->out);
	if (!err && ferror(j->out))
		err = -EIO;
	free(j);
	return err;
}
