/*
 * An MPI_Bcast replacement along ibfat's multi-lane broadcast trees, pipelined in
 * segments, that checks every byte.
 *
 *   mpirun -np N ./bcast BCAST.json MAPPING BYTES [SEGMENT_BYTES]
 *
 * BCAST.json is what `ibfat schedule TOPOLOGY --pattern bcast-multilane --out BCAST.json`
 * writes (docs/schedules.md §6.2); every process reads it on its own through the C ABI
 * (ibfat_bcast_open: one small file, no topology), and the mapping file (README.md, the
 * same format as alltoall's) says which rank of the plan each MPI rank stands for.
 *
 * The message of BYTES bytes is split in L parts (L = the plan's lanes; part h is bytes
 * [h*BYTES/L, (h+1)*BYTES/L)), and part h travels along the tree of part h: a rank
 * receives it from one parent on one lane and forwards it on every lane whose send
 * carries part h. Each part goes in segments of SEGMENT_BYTES (default 8192), pipelined:
 * every receive is posted at the start (MPI_Irecv), and a rank forwards segment s of a
 * part (MPI_Isend) as soon as it has it. Lane k is its own communicator (MPI_Comm_dup of
 * MPI_COMM_WORLD): a lane carries at most one flow out of and one into each rank, so on a
 * lane's communicator the segments of a flow match in order with a single tag. On a
 * dual-rail cluster lane k is the process's port on rail k; on one machine the lanes are
 * only these communicators (the rails are emulated).
 *
 * The root's byte k is a hash of (root, k); every rank checks every byte and every
 * segment's length. Rank 0 prints one line (segments: segment messages received, summed
 * over the ranks; bytes_verified: bytes received and checked, (N-1)*BYTES when all went
 * well; errors: wrong bytes, wrong lengths):
 *   ibfat-mpi-bcast: ranks=N lanes=L root=R bytes=B segment=S segments=T bytes_verified=V errors=E
 * Exit status: 0 when every byte arrived intact, 1 on any mismatch, 2 on bad input
 * (files, arguments, mapping).
 */
#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibfat.h"
#include "mapping.h"

#define MAX_BYTES (1UL << 30)

/* Byte k of a message broadcast from plan rank `root`. */
static uint8_t payload_byte(uint32_t root, uint64_t k)
{
	uint64_t x = ((uint64_t)root << 40) ^ k;
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (uint8_t)(x ^ (x >> 31));
}

/* The plan behind the mapping file's callbacks. */
static int bcast_rank_of(const void *plan, uint64_t guid, uint32_t *rank)
{
	uint32_t n = 0, lanes = 0;
	ibfat_bcast_size(plan, &n, &lanes);
	for (uint32_t r = 0; r < n; r++) {
		uint64_t g = 0;
		if (ibfat_bcast_rank_guid(plan, r, &g) == IBFAT_OK && g == guid) {
			*rank = r;
			return 0;
		}
	}
	return 1;
}

static uint64_t bcast_guid_of(const void *plan, uint32_t rank)
{
	uint64_t guid = 0;
	ibfat_bcast_rank_guid(plan, rank, &guid);
	return guid;
}

/* Where part h lies in a message of `len` bytes split in `parts`. */
static size_t part_start(size_t len, uint32_t parts, uint32_t h)
{
	return (size_t)((uint64_t)len * h / parts);
}

struct run {
	size_t len, seg;    /* message and segment bytes */
	uint32_t lanes, me; /* lanes of the plan, this process's plan rank */
	uint32_t root;
	MPI_Comm *lane;     /* one communicator per lane */
};

struct tally {
	unsigned long long segments, bytes, errors;
};

#define report(me, reports, ...) report_problem("bcast: plan rank", (me), (reports), __VA_ARGS__)

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);
	if (!p) {
		fprintf(stderr, "bcast: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
	}
	return p;
}

/* Send n bytes at p, a segment of part `part`, on every lane whose send carries that part. */
static void forward(const struct run *r, const struct mapping *m, const uint32_t *to, const uint32_t *to_part,
		    uint32_t part, uint8_t *p, size_t n, MPI_Request *send, size_t *sent)
{
	for (uint32_t k = 0; k < r->lanes; k++)
		if (to[k] != IBFAT_BCAST_NONE && to_part[k] == part)
			MPI_Isend(p, (int)n, MPI_BYTE, (int)m->mpi_of_sched[to[k]], 0, r->lane[k], &send[(*sent)++]);
}

/* The broadcast itself: post every receive, send what the rank holds, forward every
 * segment as it arrives, then check the whole message. */
static void broadcast(const IbfatBcast *b, const struct mapping *m, const struct run *r, uint8_t *buf,
		      struct tally *t)
{
	uint32_t L = r->lanes;
	uint32_t *to = xcalloc(L, sizeof *to), *to_part = xcalloc(L, sizeof *to_part);
	uint32_t *from_lane = xcalloc(L, sizeof *from_lane); /* lane part h arrives on */
	size_t *first = xcalloc(L + 1, sizeof *first);      /* first segment index of part h */
	size_t segs = 0, nsend = 0, sent = 0;
	unsigned reports = 0;

	for (uint32_t h = 0; h < L; h++) {
		size_t plen = part_start(r->len, L, h + 1) - part_start(r->len, L, h);
		first[h] = segs;
		segs += (plen + r->seg - 1) / r->seg;
		from_lane[h] = NO_RANK;
	}
	first[L] = segs;
	for (uint32_t k = 0; k < L; k++) {
		uint32_t from, part;
		ibfat_bcast_send(b, r->me, k, &to[k], &to_part[k]);
		if (to[k] != IBFAT_BCAST_NONE)
			nsend += first[to_part[k] + 1] - first[to_part[k]];
		ibfat_bcast_recv(b, r->me, k, &from, &part);
		if (from != IBFAT_BCAST_NONE)
			from_lane[part] = k;
	}

	/* segment i of the message: part h, bytes [off, off + n) */
	MPI_Request *recv = xcalloc(segs, sizeof *recv), *send = xcalloc(nsend, sizeof *send);
	int *idx = xcalloc(segs, sizeof *idx);
	MPI_Status *st = xcalloc(segs, sizeof *st);
	uint32_t *part_of = xcalloc(segs, sizeof *part_of);
	size_t *off = xcalloc(segs, sizeof *off), *n = xcalloc(segs, sizeof *n);
	size_t waiting = 0;

	for (uint32_t h = 0; h < L; h++)
		for (size_t i = first[h]; i < first[h + 1]; i++) {
			size_t end = part_start(r->len, L, h + 1);
			part_of[i] = h;
			off[i] = part_start(r->len, L, h) + (i - first[h]) * r->seg;
			n[i] = end - off[i] < r->seg ? end - off[i] : r->seg;
		}
	if (r->me == r->root)
		for (size_t k = 0; k < r->len; k++)
			buf[k] = payload_byte(r->root, k);
	for (size_t i = 0; i < segs; i++) {
		uint32_t k = from_lane[part_of[i]];
		recv[i] = MPI_REQUEST_NULL;
		if (r->me == r->root)
			continue;
		if (k == NO_RANK) { /* the plan never brings this part here */
			if (i == first[part_of[i]]) {
				report(r->me, &reports, "part %u: no lane brings it", part_of[i]);
				t->errors++;
			}
			continue;
		}
		uint32_t parent, part;
		ibfat_bcast_recv(b, r->me, k, &parent, &part);
		MPI_Irecv(buf + off[i], (int)n[i], MPI_BYTE, (int)m->mpi_of_sched[parent], 0, r->lane[k], &recv[i]);
		waiting++;
	}
	if (r->me == r->root)
		for (size_t i = 0; i < segs; i++)
			forward(r, m, to, to_part, part_of[i], buf + off[i], n[i], send, &sent);
	while (waiting > 0) {
		int count = 0;
		MPI_Waitsome((int)segs, recv, &count, idx, st);
		if (count == MPI_UNDEFINED)
			break;
		for (int c = 0; c < count; c++) {
			size_t i = (size_t)idx[c];
			int got = 0;
			MPI_Get_count(&st[c], MPI_BYTE, &got);
			if ((size_t)got != n[i]) {
				report(r->me, &reports, "segment %zu of part %u: %d bytes, expected %zu", i - first[part_of[i]],
				       part_of[i], got, n[i]);
				t->errors++;
			}
			t->segments++;
			forward(r, m, to, to_part, part_of[i], buf + off[i], n[i], send, &sent);
		}
		waiting -= (size_t)count;
	}
	MPI_Waitall((int)sent, send, MPI_STATUSES_IGNORE);
	if (r->me != r->root) {
		unsigned long long bad = 0;
		for (size_t k = 0; k < r->len; k++) {
			uint8_t want = payload_byte(r->root, k);
			if (buf[k] != want && bad++ == 0)
				report(r->me, &reports, "byte %zu is 0x%02x, expected 0x%02x", k, buf[k], want);
		}
		t->errors += bad;
		t->bytes += r->len;
	}
	if (reports > MAX_REPORTS)
		fprintf(stderr, "bcast: plan rank %u: %u more problems not shown\n", r->me, reports - MAX_REPORTS);
	free(to);
	free(to_part);
	free(from_lane);
	free(first);
	free(recv);
	free(send);
	free(idx);
	free(st);
	free(part_of);
	free(off);
	free(n);
}

static int parse_size(const char *arg, const char *what, unsigned long lo, size_t *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	if (*end || end == arg || *arg == '-' || errno || v < lo || v > MAX_BYTES)
		return fail("%s: `%s` is not a number of bytes from %lu to %lu", what, arg, lo, MAX_BYTES);
	*out = v;
	return 0;
}

/* Read the arguments, the plan and the mapping; 0 or an exit status with setup_error set. */
static int setup(int argc, char **argv, int size, IbfatBcast **b, struct mapping *m, struct run *r)
{
	uint32_t ranks;

	if (argc < 4 || argc > 5)
		return fail("usage: mpirun -np N %s BCAST.json MAPPING BYTES [SEGMENT_BYTES]", argv[0]);
	if (parse_size(argv[3], "BYTES", 0, &r->len) || (argc == 5 && parse_size(argv[4], "SEGMENT_BYTES", 1, &r->seg)))
		return EXIT_INPUT;
	if (ibfat_bcast_open(argv[1], b) != IBFAT_OK)
		return fail("cannot read the broadcast plan: %s", ibfat_last_error());
	if (ibfat_bcast_size(*b, &ranks, &r->lanes) != IBFAT_OK || ibfat_bcast_root(*b, &r->root) != IBFAT_OK)
		return fail("%s: %s", argv[1], ibfat_last_error());
	return mapping_for(argv[2], argv[1], *b, bcast_rank_of, bcast_guid_of, ranks, size, m);
}

int main(int argc, char **argv)
{
	IbfatBcast *b = NULL;
	struct mapping m = { 0 };
	struct run r = { .seg = 8192 };
	struct tally t = { 0 }, sum = { 0 };
	int me, size, rc, worst, first;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* every rank checks the files; the lowest rank that failed says why, all stop */
	rc = setup(argc, argv, size, &b, &m, &r);
	MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (worst) {
		int mine = rc ? me : size;
		MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		if (me == first)
			fprintf(stderr, "bcast: MPI rank %d: %s\n", me, setup_error);
		ibfat_bcast_free(b);
		mapping_free(&m);
		MPI_Finalize();
		return worst;
	}

	r.me = m.sched_of_mpi[me];
	r.lane = xcalloc(r.lanes, sizeof *r.lane);
	for (uint32_t k = 0; k < r.lanes; k++)
		MPI_Comm_dup(MPI_COMM_WORLD, &r.lane[k]);
	uint8_t *buf = xcalloc(r.len, 1);
	broadcast(b, &m, &r, buf, &t);
	MPI_Allreduce(&t, &sum, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (me == 0)
		printf("ibfat-mpi-bcast: ranks=%d lanes=%u root=%u bytes=%zu segment=%zu segments=%llu "
		       "bytes_verified=%llu errors=%llu\n",
		       size, r.lanes, r.root, r.len, r.seg, sum.segments, sum.bytes, sum.errors);
	for (uint32_t k = 0; k < r.lanes; k++)
		MPI_Comm_free(&r.lane[k]);
	free(r.lane);
	free(buf);
	ibfat_bcast_free(b);
	mapping_free(&m);
	MPI_Finalize();
	return sum.errors ? EXIT_MISMATCH : 0;
}
