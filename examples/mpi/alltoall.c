/*
 * An MPI all-to-all that follows an ibfat schedule, phase by phase, and checks every byte.
 *
 *   mpirun -np N ./alltoall SCHEDULE.json MAPPING [BYTES_PER_PAIR]
 *
 * Every process reads the schedule file on its own (ibfat_schedule_open: no topology is
 * needed) and the mapping file, which says which host port of the schedule each MPI rank
 * stands for (see README.md: lines `MPI_RANK PORT_GUID`). In phase p, schedule rank s
 * sends BYTES_PER_PAIR bytes to the rank the schedule gives and receives from the rank
 * that sends to s in that phase, with one MPI_Sendrecv (MPI_PROC_NULL for a missing side:
 * idle, or nobody sends to s); a rank the schedule sends to itself copies locally. The
 * byte at offset k of the message from s to d is a hash of (s, d, k), so the receiver
 * checks every byte, and counts whom it heard from: every other rank exactly once.
 *
 * Rank 0 prints one line (pairs: ordered pairs of distinct ranks delivered exactly once;
 * bytes_verified: bytes received from other ranks and checked, N*(N-1)*BYTES_PER_PAIR
 * when all went well; errors: messages with a wrong byte or length, pairs missing or
 * repeated):
 *   ibfat-mpi-alltoall: ranks=N phases=P pairs=N*(N-1) bytes_verified=B errors=E
 * Exit status: 0 when every byte of every pair arrived once and intact, 1 on any
 * mismatch, missing or repeated pair, 2 on bad input (files, arguments, mapping).
 *
 *   mpicc -std=c11 -O2 -Wall alltoall.c -I ../../ffi/include \
 *         ../../target/release/libibfatc.a -lpthread -ldl -lm -o alltoall
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibfat.h"
#include "mapping.h"


/* The byte at offset `off` of the message from schedule rank `src` to `dst`: a mix of the
 * three, so a message from the wrong rank, to the wrong rank or shifted is caught. */
static uint8_t payload_byte(uint32_t src, uint32_t dst, uint64_t off)
{
	uint64_t x = ((uint64_t)src << 40) ^ ((uint64_t)dst << 20) ^ off;
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return (uint8_t)(x ^ (x >> 31));
}

/* The schedule behind the mapping file's callbacks. */
static int schedule_rank_of(const void *plan, uint64_t guid, uint32_t *rank)
{
	return ibfat_schedule_rank_of(plan, guid, rank) != IBFAT_OK;
}

static uint64_t schedule_guid_of(const void *plan, uint32_t rank)
{
	uint64_t guid = 0;
	ibfat_schedule_rank_guid(plan, rank, &guid);
	return guid;
}

/* Counters of one rank, summed over all ranks at the end: the other ranks heard from
 * exactly once, the bytes received from other ranks and checked, the problems. */
struct tally {
	unsigned long long pairs, bytes, errors;
};

#define report(me, reports, ...) report_problem("alltoall: schedule rank", (me), (reports), __VA_ARGS__)

/* Check a received message; count the bytes that differ. */
static unsigned long long verify(const uint8_t *buf, size_t len, uint32_t src, uint32_t me, uint32_t phase,
				 unsigned *reports)
{
	unsigned long long bad = 0;
	for (size_t k = 0; k < len; k++) {
		uint8_t want = payload_byte(src, me, k);
		if (buf[k] != want && bad++ == 0)
			report(me, reports, "phase %u: byte %zu from rank %u is 0x%02x, expected 0x%02x", phase, k,
			       src, buf[k], want);
	}
	return bad;
}

/* The all-to-all itself, phase by phase. */
static void exchange(const IbfatSchedule *s, const struct mapping *m, uint32_t n, uint32_t phases, uint32_t me,
		     size_t len, struct tally *t)
{
	uint32_t *dest = malloc(n * sizeof *dest);
	unsigned *heard = calloc(n, sizeof *heard);
	uint8_t *out = malloc(len ? len : 1), *in = malloc(len ? len : 1);
	unsigned reports = 0;

	if (!dest || !heard || !out || !in) {
		fprintf(stderr, "alltoall: out of memory\n");
		MPI_Abort(MPI_COMM_WORLD, EXIT_INPUT);
	}
	for (uint32_t p = 0; p < phases; p++) {
		uint32_t to, from = NO_RANK;
		if (ibfat_schedule_phase(s, p, dest, n) != IBFAT_OK) {
			report(me, &reports, "phase %u: %s", p, ibfat_last_error());
			t->errors++;
			continue;
		}
		to = dest[me];
		for (uint32_t r = 0; r < n; r++)
			if (dest[r] == me)
				from = r;
		if (to != IBFAT_IDLE)
			for (size_t k = 0; k < len; k++)
				out[k] = payload_byte(me, to, k);
		if (to == me) { /* the rank's own block: a local copy */
			memcpy(in, out, len);
		} else {
			int dst = to == IBFAT_IDLE ? MPI_PROC_NULL : (int)m->mpi_of_sched[to];
			int src = from == NO_RANK ? MPI_PROC_NULL : (int)m->mpi_of_sched[from];
			int tag = (int)(p % 32768), got = 0;
			MPI_Status st;
			MPI_Sendrecv(out, to == IBFAT_IDLE ? 0 : (int)len, MPI_BYTE, dst, tag, in, (int)len, MPI_BYTE, src,
				     tag, MPI_COMM_WORLD, &st);
			if (from == NO_RANK)
				continue;
			MPI_Get_count(&st, MPI_BYTE, &got);
			if ((size_t)got != len) {
				report(me, &reports, "phase %u: %d bytes from rank %u, expected %zu", p, got, from, len);
				t->errors++;
				continue;
			}
		}
		if (from == NO_RANK)
			continue;
		heard[from]++;
		if (verify(in, len, from, me, p, &reports))
			t->errors++;
		if (from != me)
			t->bytes += len;
	}
	for (uint32_t r = 0; r < n; r++)
		if (r != me && heard[r] == 1) {
			t->pairs++;
		} else if (r != me) {
			report(me, &reports, "heard from rank %u %u times, expected once", r, heard[r]);
			t->errors++;
		} else if (r == me && heard[r] > 1) {
			report(me, &reports, "copied its own block %u times", heard[r]);
			t->errors++;
		}
	if (reports > MAX_REPORTS)
		fprintf(stderr, "alltoall: schedule rank %u: %u more problems not shown\n", me,
			reports - MAX_REPORTS);
	free(dest);
	free(heard);
	free(out);
	free(in);
}

/* Read the schedule and the mapping; 0 or an exit status with setup_error set. */
static int setup(int argc, char **argv, int size, IbfatSchedule **s, struct mapping *m, uint32_t *phases,
		 size_t *len)
{
	uint32_t ranks;
	char *end;

	if (argc < 3 || argc > 4)
		return fail("usage: mpirun -np N %s SCHEDULE.json MAPPING [BYTES_PER_PAIR]", argv[0]);
	if (argc == 4) {
		errno = 0;
		unsigned long v = strtoul(argv[3], &end, 10);
		if (*end || end == argv[3] || errno || v > (1UL << 30))
			return fail("BYTES_PER_PAIR: `%s` is not a number of bytes from 0 to %lu", argv[3], 1UL << 30);
		*len = v;
	}
	if (ibfat_schedule_open(argv[1], s) != IBFAT_OK)
		return fail("cannot read the schedule: %s", ibfat_last_error());
	if (ibfat_schedule_size(*s, &ranks, phases) != IBFAT_OK)
		return fail("%s: %s", argv[1], ibfat_last_error());
	return mapping_for(argv[2], argv[1], *s, schedule_rank_of, schedule_guid_of, ranks, size, m);
}

int main(int argc, char **argv)
{
	IbfatSchedule *s = NULL;
	struct mapping m = { 0 };
	struct tally t = { 0 }, sum = { 0 };
	uint32_t phases = 0;
	size_t len = 4096;
	int me, size, rc, worst, first;

	MPI_Init(&argc, &argv);
	MPI_Comm_rank(MPI_COMM_WORLD, &me);
	MPI_Comm_size(MPI_COMM_WORLD, &size);

	/* every rank checks the files; the lowest rank that failed says why, all stop */
	rc = setup(argc, argv, size, &s, &m, &phases, &len);
	MPI_Allreduce(&rc, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
	if (worst) {
		int mine = rc ? me : size;
		MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
		if (me == first)
			fprintf(stderr, "alltoall: MPI rank %d: %s\n", me, setup_error);
		ibfat_schedule_free(s);
		mapping_free(&m);
		MPI_Finalize();
		return worst;
	}

	exchange(s, &m, (uint32_t)size, phases, m.sched_of_mpi[me], len, &t);
	MPI_Allreduce(&t, &sum, 3, MPI_UNSIGNED_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
	if (me == 0)
		printf("ibfat-mpi-alltoall: ranks=%d phases=%u pairs=%llu bytes_verified=%llu errors=%llu\n", size,
		       phases, sum.pairs, sum.bytes, sum.errors);
	ibfat_schedule_free(s);
	mapping_free(&m);
	MPI_Finalize();
	return sum.errors ? EXIT_MISMATCH : 0;
}
