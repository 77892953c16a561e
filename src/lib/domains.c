// SPDX-License-Identifier: GPL-2.0-only
/*
 * CPU isolation and the RT scheduler's root domains: isolated and nohz_full
 * CPUs, the cpuset partitions of cgroup v2, the process's own cpuset, and
 * from them which CPUs the RT scheduler can move a task between. Read
 * below a root ("" for this machine, a fixture tree in the tests).
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/cpus.h"
#include "lib/domains.h"
#include "lib/kfile.h"

#define WALK_DEPTH 16

/* A CPU list file (sysfs, cpuset) as a mask; NULL when unreadable; an empty file is an empty mask. */
static struct bitmask *list_file(const char *path)
{
	struct bitmask *all, *m;
	char buf[4096];
	int ret, bad;

	ret = rt_kfile_read(path, buf, sizeof(buf));
	if (ret < 0)
		return NULL;
	if (!ret)
		return numa_allocate_cpumask();
	all = numa_allocate_cpumask();
	if (!all)
		return NULL;
	numa_bitmask_setall(all);
	m = rt_cpus_parse(buf, all, &bad);
	numa_free_cpumask(all);
	return m;
}

static void clear_from(struct bitmask *m, const struct bitmask *out)
{
	unsigned int c;

	for (c = 0; m && out && c < m->size && c < out->size; c++) {
		if (numa_bitmask_isbitset(out, c))
			numa_bitmask_clearbit(m, c);
	}
}

static void add_to(struct bitmask *m, const struct bitmask *in)
{
	unsigned int c;

	for (c = 0; m && in && c < m->size && c < in->size; c++) {
		if (numa_bitmask_isbitset(in, c))
			numa_bitmask_setbit(m, c);
	}
}

/* The process's cgroup in hierarchy @id ("0" for v2, else the v1 controller's name); "" none. */
static void own_cgroup(const char *root, const char *controller, char *out, size_t len)
{
	char path[PATH_MAX], line[1024];
	FILE *f;

	out[0] = '\0';
	snprintf(path, sizeof(path), "%s/proc/self/cgroup", root);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && !out[0]) {
		char *ctrl = strchr(line, ':'), *where = ctrl ? strchr(ctrl + 1, ':') : NULL, *c, *s;

		if (!where)
			continue;
		*where++ = '\0';
		where[strcspn(where, "\n")] = '\0';
		if (!controller && !strcmp(ctrl + 1, "") && !strncmp(line, "0", 1))
			snprintf(out, len, "%s", where);
		for (c = strtok_r(ctrl + 1, ",", &s); c && controller; c = strtok_r(NULL, ",", &s)) {
			if (!strcmp(c, controller))
				snprintf(out, len, "%s", where);
		}
	}
	fclose(f);
}

static struct rt_domain *new_domain(struct rt_domains *d, const char *kind, const char *path)
{
	struct rt_domain *dom;

	if (d->n == RT_DOMAINS_MAX)
		return NULL;
	dom = &d->dom[d->n];
	dom->cpus = numa_allocate_cpumask();
	if (!dom->cpus)
		return NULL;
	snprintf(dom->name, sizeof(dom->name), "%s%.*s", kind, (int)(sizeof(dom->name) / 2),
		 path ? path : "");
	d->n++;
	return dom;
}

/*
 * cgroup v2's partitions below @dir (@rel its path in the hierarchy),
 * parents before children: a valid "root" partition takes its effective
 * CPUs into a root domain of its own, an "isolated" one out of every
 * scheduling domain. An invalid partition is a member.
 */
static void v2_partitions(struct rt_domains *d, const char *dir, const char *rel, int depth)
{
	char path[PATH_MAX], kind[64];
	struct bitmask *cpus;
	struct dirent *e;
	DIR *dh;
	size_t i;

	snprintf(path, sizeof(path), "%s/cpuset.cpus.partition", dir);
	if (depth && rt_kfile_read(path, kind, sizeof(kind)) > 0 &&
	    (!strcmp(kind, "root") || !strcmp(kind, "isolated"))) {
		snprintf(path, sizeof(path), "%s/cpuset.cpus.effective", dir);
		cpus = list_file(path);
		for (i = 0; cpus && i < d->n; i++)
			clear_from(d->dom[i].cpus, cpus);
		if (cpus && !strcmp(kind, "isolated")) {
			add_to(d->isolated, cpus);
		} else if (cpus) {
			struct rt_domain *dom = new_domain(d, "cgroup partition ", rel);

			if (dom)
				add_to(dom->cpus, cpus);
		}
		numa_free_cpumask(cpus);
	}
	if (depth >= WALK_DEPTH)
		return;
	dh = opendir(dir);
	if (!dh)
		return;
	while ((e = readdir(dh))) {
		char sub[PATH_MAX], subrel[PATH_MAX];
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (lstat(sub, &st) || !S_ISDIR(st.st_mode))
			continue;
		snprintf(subrel, sizeof(subrel), "%s/%s", depth ? rel : "", e->d_name);
		v2_partitions(d, sub, subrel, depth + 1);
	}
	closedir(dh);
}

/* Whether cgroup v2, mounted at @v2 (or not: ""), has the cpuset controller. */
static bool v2_has_cpuset(const char *root, const char *v2)
{
	char path[PATH_MAX], buf[512], *w, *save;

	snprintf(path, sizeof(path), "%s%s/cgroup.controllers", root, v2);
	if (!v2[0] || rt_kfile_read(path, buf, sizeof(buf)) <= 0)
		return false;
	for (w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, "cpuset"))
			return true;
	}
	return false;
}

/* The process's partition (v2), and the CPUs its cpuset gives it. */
static void own_cpuset(struct rt_domains *d, const char *root, const char *v2, const char *v1)
{
	char cg[PATH_MAX / 2], path[PATH_MAX], kind[64];
	char *slash;

	if (v2[0]) {
		own_cgroup(root, NULL, cg, sizeof(cg));
		for (;;) {
			snprintf(path, sizeof(path), "%s%s%s/cpuset.cpus.effective", root, v2, cg);
			if (!d->cpuset)
				d->cpuset = list_file(path);
			snprintf(path, sizeof(path), "%s%s%s/cpuset.cpus.partition", root, v2, cg);
			if (!d->partition[0] && rt_kfile_read(path, kind, sizeof(kind)) > 0 &&
			    (!strcmp(kind, "root") || !strcmp(kind, "isolated")))
				snprintf(d->partition, sizeof(d->partition), "%s partition %.256s",
					 kind, cg[0] ? cg : "/");
			slash = strrchr(cg, '/');
			if (!slash || !cg[0])
				break;
			*slash = '\0';
		}
		if (!d->partition[0])
			snprintf(d->partition, sizeof(d->partition), "the machine's root partition");
		return;
	}
	if (v1[0]) {
		own_cgroup(root, "cpuset", cg, sizeof(cg));
		snprintf(path, sizeof(path), "%s%s%s/cpuset.effective_cpus", root, v1,
			 strcmp(cg, "/") ? cg : "");
		d->cpuset = list_file(path);
		snprintf(d->partition, sizeof(d->partition), "cgroup v1 cpuset %.256s",
			 cg[0] ? cg : "/");
	}
}

/* The root domains as cgroup v1's cpusets leave them: one unless the root stops balancing. */
static int v1_domains(struct rt_domains *d, const char *root, const char *v1)
{
	char path[PATH_MAX], buf[16];

	snprintf(path, sizeof(path), "%s%s/cpuset.sched_load_balance", root, v1);
	if (rt_kfile_read(path, buf, sizeof(buf)) > 0 && !strcmp(buf, "0")) {
		snprintf(d->why, sizeof(d->why),
			 "cgroup v1's root cpuset does not balance (cpuset.sched_load_balance 0): "
			 "its cpusets decide the root domains, which rtsched does not work out");
		return -1;
	}
	return 0;
}

/**
 * rt_domains_read - isolation, the process's cpuset and the root domains
 * @root: "" for this machine, or a fixture tree with proc/ and sys/
 *
 * Returns 0 (what cannot be read stays NULL or empty, d->n 0 with why),
 * or -ENOMEM. rt_domains_free() frees it.
 */
int rt_domains_read(struct rt_domains *d, const char *root)
{
	char path[PATH_MAX], v2[512], v1[512];
	struct rt_domain *all;

	memset(d, 0, sizeof(*d));
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/online", root);
	d->online = list_file(path);
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/isolated", root);
	d->isolated = list_file(path);
	if (!d->isolated)
		d->isolated = numa_allocate_cpumask();
	snprintf(path, sizeof(path), "%s/sys/devices/system/cpu/nohz_full", root);
	d->nohz_full = list_file(path);
	if (!d->nohz_full)
		d->nohz_full = numa_allocate_cpumask();
	if (!d->isolated || !d->nohz_full)
		return -ENOMEM;
	/* cpusets are v1's where v1 has the controller, else v2's if it has it */
	rt_kfile_mount(root, "cgroup", "cpuset", v1, sizeof(v1));
	rt_kfile_mount(root, "cgroup2", NULL, v2, sizeof(v2));
	if (v1[0] || !v2_has_cpuset(root, v2))
		v2[0] = '\0';
	own_cpuset(d, root, v2, v1);
	if (!d->online) {
		snprintf(d->why, sizeof(d->why), "%s/sys/devices/system/cpu/online is not readable",
			 root);
		return 0;
	}
	if (v1[0] && v1_domains(d, root, v1))
		return 0;
	all = new_domain(d, "the machine's", NULL);
	if (!all)
		return -ENOMEM;
	add_to(all->cpus, d->online);
	if (v2[0]) {
		snprintf(path, sizeof(path), "%s%s", root, v2);
		v2_partitions(d, path, "/", 0);
	}
	clear_from(all->cpus, d->isolated);
	if (rt_cpus_count(d->isolated)) {
		struct rt_domain *iso = new_domain(d, "isolated", NULL);

		if (!iso)
			return -ENOMEM;
		add_to(iso->cpus, d->isolated);
	}
	return 0;
}

void rt_domains_free(struct rt_domains *d)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		numa_free_cpumask(d->dom[i].cpus);
	if (d->online)
		numa_free_cpumask(d->online);
	if (d->isolated)
		numa_free_cpumask(d->isolated);
	if (d->nohz_full)
		numa_free_cpumask(d->nohz_full);
	if (d->cpuset)
		numa_free_cpumask(d->cpuset);
	memset(d, 0, sizeof(*d));
}

/**
 * rt_domains_of - the root domains @cpus fall in: their indexes in d->dom
 * into @which (up to @max of them)
 *
 * Returns how many, or -1 when the root domains are not known. A CPU in
 * none of them (offline) counts in none.
 */
int rt_domains_of(const struct rt_domains *d, const struct bitmask *cpus, size_t *which,
		  size_t max)
{
	size_t i, k = 0;
	unsigned int c;

	if (!d->n)
		return -1;
	for (i = 0; i < d->n; i++) {
		for (c = 0; c < cpus->size && c < d->dom[i].cpus->size; c++) {
			if (numa_bitmask_isbitset(cpus, c) && numa_bitmask_isbitset(d->dom[i].cpus, c))
				break;
		}
		if (c < cpus->size && c < d->dom[i].cpus->size) {
			if (k < max)
				which[k] = i;
			k++;
		}
	}
	return (int)k;
}

/**
 * rt_domains_quiet - whether @cpu is kept quiet for RT work: isolated or
 * nohz_full
 */
bool rt_domains_quiet(const struct rt_domains *d, int cpu)
{
	unsigned int c = (unsigned int)cpu;

	return cpu >= 0 && ((d->isolated && c < d->isolated->size &&
			     numa_bitmask_isbitset(d->isolated, c)) ||
			    (d->nohz_full && c < d->nohz_full->size &&
			     numa_bitmask_isbitset(d->nohz_full, c)));
}

/**
 * rt_domains_housekeeping - the CPUs of @cpus that are neither isolated nor
 * nohz_full
 *
 * Returns a new mask (empty when there are none), or NULL out of memory.
 */
struct bitmask *rt_domains_housekeeping(const struct rt_domains *d, const struct bitmask *cpus)
{
	struct bitmask *hk = numa_allocate_cpumask();

	if (!hk)
		return NULL;
	add_to(hk, cpus);
	clear_from(hk, d->isolated);
	clear_from(hk, d->nohz_full);
	return hk;
}
