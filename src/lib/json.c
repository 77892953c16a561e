// SPDX-License-Identifier: GPL-2.0-only
/*
 * JSON output, and result files that are either whole or absent.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt_json.h"

/**
 * rt_json_init - start writing JSON to @out
 */
void rt_json_init(struct rt_json *j, FILE *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
	j->first[0] = true;
}

static void put_string(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else if (*p == '\t')
			fputs("\\t", out);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(out, "\\u%04x", *p);
		else
			fputc(*p, out);
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
 * rt_json_finish - end the document
 *
 * Returns 0, -EINVAL when an object or array is left open or the calls did
 * not make a document, -EIO when writing failed.
 */
int rt_json_finish(struct rt_json *j)
{
	if (!j->err && (j->depth || j->first[0]))
		j->err = -EINVAL;
	if (!j->err)
		fputc('\n', j->out);
	if (!j->err && ferror(j->out))
		j->err = -EIO;
	return j->err;
}

/**
 * rt_json_file_open - open a temporary file beside @path to write a result in
 * @tmp: receives the temporary name, for rt_json_file_commit()
 *
 * "-" is standard output, written directly.
 *
 * Returns the stream, or NULL with errno set (EEXIST: @path exists already:
 * a result is never overwritten).
 */
FILE *rt_json_file_open(const char *path, char *tmp, size_t len)
{
	FILE *f;
	int fd;

	if (!strcmp(path, "-")) {
		tmp[0] = '\0';
		return stdout;
	}
	if (!access(path, F_OK)) {
		errno = EEXIST;
		return NULL;
	}
	if ((size_t)snprintf(tmp, len, "%s.tmp.XXXXXX", path) >= len) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f) {
		int err = errno;

		close(fd);
		unlink(tmp);
		errno = err;
	}
	return f;
}

/**
 * rt_json_file_commit - close @f and give it its name, or remove it
 *
 * The rename does not replace an existing @path (RENAME_NOREPLACE), so a
 * result that appeared meanwhile is not overwritten either. With an empty
 * @tmp (standard output) the stream is only flushed, and closed unless it
 * is stdout itself.
 *
 * Returns 0 or a negative errno (the temporary file is then removed).
 */
int rt_json_file_commit(FILE *f, const char *tmp, const char *path)
{
	int ret = 0;

	if (!tmp[0]) {
		if (fflush(f))
			return -errno;
		return f == stdout || !fclose(f) ? 0 : -errno;
	}
	if (fflush(f) || fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	if (!ret && renameat2(AT_FDCWD, tmp, AT_FDCWD, path, RENAME_NOREPLACE))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}
