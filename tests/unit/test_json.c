// SPDX-License-Identifier: GPL-2.0-only
/* The JSON writer: exact output, escaping, UTF-8, misuse. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "lib/json.h"
#include "harness.h"

static char *render(void (*fill)(struct rt_json *), int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct rt_json *j = rt_json_new(f);

	fill(j);
	*ret = rt_json_finish(j);
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

/* What each document writes, and what finishing it returns (NULL: not looked at). */
static const struct json_case {
	const char *name;
	void (*fill)(struct rt_json *j);
	int ret;
	const char *out;
} cases[] = {
	{ "a_document_exactly", doc, 0,
	  "{\n  \"tool\": \"migrate\",\n  \"neg\": -3,\n  \"big\": 18446744073709551615,\n"
	  "  \"half\": 0.5,\n  \"nan\": null,\n  \"pi\": true,\n  \"none\": null,\n"
	  "  \"empty\": [],\n  \"rows\": [\n    {\n      \"vol\": 53\n    }\n  ]\n}\n" },
	/* quotes, backslashes and control characters escaped, UTF-8 kept */
	{ "escapes", escapes, 0,
	  "[\n  \"a\\\"b\\\\c\\nd\\te\\u0001f\\u007f\",\n  \"caf\xc3\xa9\"\n]\n" },
	/* a byte that is not UTF-8 becomes \ufffd, valid sequences are kept */
	{ "not_utf8", not_utf8, 0,
	  "[\n  \"caf\\ufffd.json\",\n  \"\\ufffda\\ufffd\\ufffdb\\ufffd\\ufffdc"
	  "\\ufffd\\ufffd\\ufffdd\xf0\x9f\x98\x80\"\n]\n" },
	{ "a_key_inside_an_array", key_in_array, -EINVAL, NULL },
	{ "an_unclosed_object", unclosed, -EINVAL, NULL },
	{ "no_value_at_all", nothing, -EINVAL, NULL },
};

TEST_TABLE(writes, struct json_case, cases)
{
	int ret;
	char *out = render(row->fill, &ret);

	EXPECT_EQ(ret, row->ret);
	if (row->out)
		EXPECT_STR(out, row->out);
	free(out);
}
