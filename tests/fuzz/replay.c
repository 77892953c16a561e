// SPDX-License-Identifier: GPL-2.0-only
/*
 * A harness without libFuzzer: feed it each file named on the command line
 * (the kept regression inputs). Prints TAP; a crash is a failure of the
 * caller's test.
 */
#include <stdio.h>

#include "fuzz.h"

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		static uint8_t buf[1 << 20];
		size_t n;

		if (!f) {
			printf("not ok %d - %s: cannot open\n", i, argv[i]);
			continue;
		}
		n = fread(buf, 1, sizeof(buf), f);
		fclose(f);
		LLVMFuzzerTestOneInput(buf, n);
		printf("ok %d - %s\n", i, argv[i]);
		fflush(stdout);
	}
	printf("1..%d\n", argc - 1);
	return 0;
}
