// SPDX-License-Identifier: GPL-2.0-only
/* The JSON writer: exact output, escaping, misuse, and whole-or-absent files. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_json.h"
#include "tap.h"

static char *render(void (*fill)(struct rt_json *), int *ret)
{
	struct rt_json j;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rt_json_init(&j, f);
	fill(&j);
	*ret = rt_json_finish(&j);
	fclose(f);
	return buf;
}

static void doc(struct rt_json *j)
{
	rt_json_object(j, NULL);
	rt_json_str(j, "tool", "migrate");
	rt_json_int(j, "neg", -3);
	rt_json_uint(j, "big", 18446744073709551615ULL);
	rt_json_double(j, "half", 0.5);
	rt_json_double(j, "nan", NAN);
	rt_json_bool(j, "pi", true);
	rt_json_null(j, "none");
	rt_json_array(j, "empty");
	rt_json_end(j);
	rt_json_array(j, "rows");
	rt_json_object(j, NULL);
	rt_json_uint(j, "vol", 53);
	rt_json_end(j);
	rt_json_end(j);
	rt_json_end(j);
}

static void escapes(struct rt_json *j)
{
	rt_json_array(j, NULL);
	rt_json_str(j, NULL, "a\"b\\c\nd\te\x01" "f\x7f");
	rt_json_str(j, NULL, "caf\xc3\xa9");
	rt_json_end(j);
}

static void key_in_array(struct rt_json *j)
{
	rt_json_array(j, NULL);
	rt_json_int(j, "k", 1);
	rt_json_end(j);
}

static void unclosed(struct rt_json *j)
{
	rt_json_object(j, NULL);
}

static void nothing(struct rt_json *j)
{
	(void)j;
}

int main(void)
{
	char dir[] = "/tmp/rtsched-json-XXXXXX", path[256], tmp[300];
	struct stat st;
	char *out;
	FILE *f;
	int ret;

	out = render(doc, &ret);
	tap_is(ret, 0, "a document finishes");
	tap_str(out,
		"{\n  \"tool\": \"migrate\",\n  \"neg\": -3,\n  \"big\": 18446744073709551615,\n"
		"  \"half\": 0.5,\n  \"nan\": null,\n  \"pi\": true,\n  \"none\": null,\n"
		"  \"empty\": [],\n  \"rows\": [\n    {\n      \"vol\": 53\n    }\n  ]\n}\n",
		"  exactly as expected");
	free(out);
	out = render(escapes, &ret);
	tap_str(out, "[\n  \"a\\\"b\\\\c\\nd\\te\\u0001f\\u007f\",\n  \"caf\xc3\xa9\"\n]\n",
		"quotes, backslashes and control characters are escaped, UTF-8 kept");
	free(out);
	free(render(key_in_array, &ret));
	tap_is(ret, -EINVAL, "a key inside an array is -EINVAL");
	free(render(unclosed, &ret));
	tap_is(ret, -EINVAL, "an unclosed object is -EINVAL");
	free(render(nothing, &ret));
	tap_is(ret, -EINVAL, "no value at all is -EINVAL");

	mkdtemp(dir);
	snprintf(path, sizeof(path), "%s/r.json", dir);
	f = rt_json_file_open(path, tmp, sizeof(tmp));
	tap_ok(f != NULL, "a result file opens");
	fputs("{}\n", f);
	tap_ok(stat(path, &st) != 0, "  and is not there under its name while written");
	tap_is(rt_json_file_commit(f, tmp, path), 0, "  commit");
	tap_ok(stat(path, &st) == 0 && st.st_size == 3, "  then it is there, whole");
	tap_ok(stat(tmp, &st) != 0, "  and the temporary name is gone");
	errno = 0;
	tap_ok(!rt_json_file_open(path, tmp, sizeof(tmp)) && errno == EEXIST,
	       "an existing result is not overwritten: EEXIST");
	unlink(path);
	f = rt_json_file_open(path, tmp, sizeof(tmp));
	fputs("new", f);
	/* another writer gets there first */
	fclose(fopen(path, "w"));
	tap_is(rt_json_file_commit(f, tmp, path), -EEXIST,
	       "a result that appears meanwhile is not replaced");
	tap_ok(stat(tmp, &st) != 0, "  and the temporary file is removed");
	unlink(path);
	rmdir(dir);
	return tap_done();
}
