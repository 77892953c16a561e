// SPDX-License-Identifier: GPL-2.0-only
/* The table: its arithmetic and its shape against the commit message. */
#include <stdlib.h>

#include "rt_report.h"
#include "tap.h"

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

int main(void)
{
	struct rt_row total;
	char *out;

	rt_report_sum(commit_rows, 8, &total);
	tap_ok(total.vol == 5156 && total.nonvol == 4977 && total.migrated == 6341 &&
		       total.iterations == 787,
	       "the column sums are the commit message's totals");

	out = render(commit_rows, 8);
	/*
	 * The commit printed the total's nonvol one column to the right of the
	 * rows; this table keeps every column aligned, so it differs there only.
	 */
	tap_str(out, commit_table, "the table has the commit message's shape, columns aligned");
	tap_ok(aligned(out), "every line is as wide as the header");
	free(out);

	out = render(NULL, 0);
	tap_ok(strstr(out, "total:        0         0          0              0\n") != NULL,
	       "an empty table still has a zero total");
	free(out);

	{
		struct rt_row big = { 123456789012ULL, 1, 2, 3 };

		out = render(&big, 1);
		tap_ok(strstr(out, "123456789012") != NULL, "a wide number is printed whole");
		free(out);
	}
	return tap_done();
}
