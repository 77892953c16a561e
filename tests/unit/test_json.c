// SPDX-License-Identifier: GPL-2.0-only
/* The JSON writer: exact output, escaping, UTF-8, misuse. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

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

/* bytes that are not UTF-8: Latin-1, a stray continuation, truncated, overlong, a surrogate */
static void not_utf8(struct rt_json *j)
{
	rt_json_array(j, NULL);
	rt_json_str(j, NULL, "caf\xe9.json");
	rt_json_str(j, NULL, "\x80" "a\xe2\x82" "b\xc0\xaf" "c\xed\xa0\x80" "d\xf0\x9f\x98\x80");
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
	char *out;
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

	out = render(not_utf8, &ret);
	tap_str(out,
		"[\n  \"caf\\ufffd.json\",\n  \"\\ufffda\\ufffd\\ufffdb\\ufffd\\ufffdc"
		"\\ufffd\\ufffd\\ufffdd\xf0\x9f\x98\x80\"\n]\n",
		"a byte that is not UTF-8 becomes \\ufffd, valid sequences are kept");
	free(out);
	return tap_done();
}
