// SPDX-License-Identifier: GPL-2.0-only
/* The table: its arithmetic and its shape against the commit message. */
#include <stdlib.h>

#include "lib/report.h"
#include "harness.h"

/* The first table of commit 43fa5460fe60, as published. */
static const struct rt_row commit_rows[] = {
	{ 53, 3220, 1470, 98 }, { 562, 773, 724, 98 }, { 752, 933, 1375, 98 },
	{ 749, 39, 697, 98 },	{ 758, 5, 515, 98 },   { 764, 2, 679, 99 },
	{ 761, 2, 535, 99 },	{ 757, 3, 346, 99 },
};

static const char commit_table[] =
	"Task        vol    nonvol   migrated     iterations\n"
	"----        ---    ------   --------     ----------\n"
	"  0:         53      3220       1470             98\n"
	"  1:        562       773        724             98\n"
	"  2:        752       933       1375             98\n"
	"  3:        749        39        697             98\n"
	"  4:        758         5        515             98\n"
	"  5:        764         2        679             99\n"
	"  6:        761         2        535             99\n"
	"  7:        757         3        346             99\n"
	"\n"
	"total:     5156      4977       6341            787\n";

static char *render(const struct rt_row *rows, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rt_report_table(f, rows, n);
	fclose(f);
	return buf;
}

/* Every non-empty line of @s ends its columns at the same places as the header. */
static int aligned(const char *s)
{
	const char *line = s;

	while (*line) {
		const char *end = strchr(line, '\n');
		size_t len = (size_t)(end - line);

		if (len && len != 51)
			return 0;
		line = end + 1;
	}
	return 1;
}

TEST(the_sums_are_the_commit_messages_totals)
{
	struct rt_row total;

	rt_report_sum(commit_rows, 8, &total);
	EXPECT_EQ(total.vol, 5156);
	EXPECT_EQ(total.nonvol, 4977);
	EXPECT_EQ(total.migrated, 6341);
	EXPECT_EQ(total.iterations, 787);
}

TEST(the_table_has_the_commit_messages_shape)
{
	char *out = render(commit_rows, 8);

	/*
	 * The commit printed the total's nonvol one column to the right of the
	 * rows; this table keeps every column aligned, so it differs there only.
	 */
	EXPECT_STR(out, commit_table);
	EXPECT(aligned(out), "every line is as wide as the header:\n%s", out);
	free(out);
}

TEST(an_empty_table_has_a_zero_total)
{
	char *out = render(NULL, 0);

	EXPECT_CONTAINS(out, "total:        0         0          0              0\n");
	free(out);
}

TEST(a_wide_number_is_printed_whole)
{
	struct rt_row big = { 123456789012ULL, 1, 2, 3 };
	char *out = render(&big, 1);

	EXPECT_CONTAINS(out, "123456789012");
	free(out);
}
