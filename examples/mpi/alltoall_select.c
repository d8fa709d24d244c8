/*
 * An MPI_Alltoall replacement that picks its algorithm at run time (seed 001, issue 13):
 * ibfat predicts every algorithm's time for the job's placement and prunes the slow ones,
 * then a selector learns among the rest over repeated calls and keeps the fastest.
 *
 *   mpirun -np N ./alltoall_select FABRIC JOB BYTES CALLS [MARGIN [LATENCY BANDWIDTH]]
 *
 * FABRIC is a fabric.yaml (or plan folder) of the fabric; JOB the fabric hosts MPI ranks
 * 0..N-1 stand for, one rank per host (`ranks:0,4,8,12` or a job file, as `ibfat
 * predict --job`). Every process asks ibfat for the shortlist of its placement
 * (ibfat_selector_for_job), keeps the algorithms this program implements with
 * point-to-point calls (spread, ring, pair, their one-barrier / MPI-barrier /
 * light-barrier variants, bruck), and runs CALLS all-to-alls of BYTES per pair. Each
 * call runs the candidate the selector names; its time is the slowest rank's
 * (MPI_Allreduce MAX), so every rank records the same time and makes the same choice.
 * Every received byte of every call is checked. MARGIN (default 0.5) is how much slower
 * than the second-best the choice may get before the selector learns again; LATENCY and
 * BANDWIDTH (default 2e-6 s, 3.2e9 B/s) feed the prediction.
 *
 * Rank 0 prints:
 *   ibfat-mpi-select: ranks=N bytes=B calls=C shortlist=a,b,c not_implemented=x,y|- chosen=a|none
 *   learning_calls=L bytes_verified=V errors=E
 * Exit status 0 when every byte arrived intact, 1 on a mismatch, 2 on bad input.
 */
#include <inttypes.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibfat.h"

enum { EXIT_MISMATCH = 1, EXIT_INPUT = 2 };
enum { NAMES_LEN = 1024, K = 2 };

static uint8_t byte_of(int src, int dst, size_t off, int call)
{
	uint64_t x = ((uint64_t)src << 40) ^ ((uint64_t)dst << 20) ^ (uint64_t)off ^ ((uint64_t)call << 58);
	x = (x ^ (x >> 31)) * 0x9e3779b97f4a7c15ULL;
	return (uint8_t)(x >> 56);
}

static int is_pow2(int n) { return n > 0 && (n & (n - 1)) == 0; }

/* Steps r -> r+k (ring, or pair when P is not a power of two) or r <-> r^k (pair). */
static void exchange_steps(const uint8_t *send, uint8_t *recv, size_t m, int r, int p, int xor_partner,
			   int barrier /* 0 none, 2 MPI, 3 light */)
{
	memcpy(recv + (size_t)r * m, send + (size_t)r * m, m);
	for (int k = 1; k < p; k++) {
		int to = xor_partner ? (r ^ k) : (r + k) % p;
		int from = xor_partner ? (r ^ k) : (r - k + p) % p;
		MPI_Sendrecv(send + (size_t)to * m, (int)m, MPI_BYTE, to, k, recv + (size_t)from * m, (int)m,
			     MPI_BYTE, from, k, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (barrier == 2)
			MPI_Barrier(MPI_COMM_WORLD);
		else if (barrier == 3)
			MPI_Sendrecv(NULL, 0, MPI_BYTE, to, p + k, NULL, 0, MPI_BYTE, from, p + k, MPI_COMM_WORLD,
				     MPI_STATUS_IGNORE);
	}
}

static void spread(const uint8_t *send, uint8_t *recv, size_t m, int r, int p)
{
	MPI_Request *req = malloc(sizeof *req * 2 * (size_t)p);
	int n = 0;
	for (int d = 0; d < p; d++)
		if (d != r)
			MPI_Irecv(recv + (size_t)d * m, (int)m, MPI_BYTE, d, 0, MPI_COMM_WORLD, &req[n++]);
	for (int d = 0; d < p; d++)
		if (d != r)
			MPI_Isend(send + (size_t)d * m, (int)m, MPI_BYTE, d, 0, MPI_COMM_WORLD, &req[n++]);
	memcpy(recv + (size_t)r * m, send + (size_t)r * m, m);
	MPI_Waitall(n, req, MPI_STATUSES_IGNORE);
	free(req);
}

/* Bruck: rotate so that block j is for rank r+j; in step k send the blocks whose index has
 * bit k set to r+2^k (one combined message) and receive the same positions from r-2^k;
 * block j then came from rank r-j. */
static void bruck(const uint8_t *send, uint8_t *recv, size_t m, int r, int p)
{
	uint8_t *b = malloc((size_t)p * m), *pack = malloc((size_t)p * m), *in = malloc((size_t)p * m);
	for (int j = 0; j < p; j++)
		memcpy(b + (size_t)j * m, send + (size_t)((r + j) % p) * m, m);
	for (int bit = 1; bit < p; bit <<= 1) {
		size_t n = 0;
		for (int j = 0; j < p; j++)
			if (j & bit)
				memcpy(pack + (n++) * m, b + (size_t)j * m, m);
		int to = (r + bit) % p, from = (r - bit + p) % p;
		MPI_Sendrecv(pack, (int)(n * m), MPI_BYTE, to, bit, in, (int)(n * m), MPI_BYTE, from, bit,
			     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		n = 0;
		for (int j = 0; j < p; j++)
			if (j & bit)
				memcpy(b + (size_t)j * m, in + (n++) * m, m);
	}
	for (int j = 0; j < p; j++)
		memcpy(recv + (size_t)((r - j + p) % p) * m, b + (size_t)j * m, m);
	free(b);
	free(pack);
	free(in);
}

static const char *const IMPLEMENTED[] = {
	"spread",	    "ring",	       "ring-one-barrier",  "ring-mpi-barrier", "ring-light-barrier",
	"pair",		    "pair-one-barrier", "pair-mpi-barrier", "pair-light-barrier", "bruck",
};

static int implemented(const char *name)
{
	for (size_t i = 0; i < sizeof IMPLEMENTED / sizeof *IMPLEMENTED; i++)
		if (strcmp(IMPLEMENTED[i], name) == 0)
			return 1;
	return 0;
}

static void run(const char *alg, const uint8_t *send, uint8_t *recv, size_t m, int r, int p)
{
	int pair = strncmp(alg, "pair", 4) == 0 && is_pow2(p);
	int barrier = strstr(alg, "-mpi-barrier") ? 2 : strstr(alg, "-light-barrier") ? 3 : 0;
	if (strstr(alg, "-one-barrier"))
		MPI_Barrier(MPI_COMM_WORLD);
	if (strcmp(alg, "spread") == 0)
		spread(send, recv, m, r, p);
	else if (strcmp(alg, "bruck") == 0)
		bruck(send, recv, m, r, p);
	else
		exchange_steps(send, recv, m, r, p, pair, barrier);
}

static int input_error(int rank, const char *what)
{
	if (rank == 0)
		fprintf(stderr, "ibfat-mpi-select: error: %s: %s\n", what, ibfat_last_error());
	MPI_Finalize();
	return EXIT_INPUT;
}

int main(int argc, char **argv)
{
	MPI_Init(&argc, &argv);
	int r, p;
	MPI_Comm_rank(MPI_COMM_WORLD, &r);
	MPI_Comm_size(MPI_COMM_WORLD, &p);
	if (argc != 5 && argc != 6 && argc != 8) {
		if (r == 0)
			fprintf(stderr, "usage: %s FABRIC JOB BYTES CALLS [MARGIN [LATENCY BANDWIDTH]]\n", argv[0]);
		MPI_Finalize();
		return EXIT_INPUT;
	}
	size_t m = strtoull(argv[3], NULL, 10);
	int calls = atoi(argv[4]);
	double margin = argc >= 6 ? atof(argv[5]) : 0.5;
	double lat = argc == 8 ? atof(argv[6]) : 2e-6, bw = argc == 8 ? atof(argv[7]) : 3.2e9;
	if (m == 0 || calls <= 0) {
		if (r == 0)
			fprintf(stderr, "ibfat-mpi-select: error: BYTES and CALLS must be positive\n");
		MPI_Finalize();
		return EXIT_INPUT;
	}
	IbfatFabric *f = NULL;
	if (ibfat_fabric_load(argv[1], &f) != IBFAT_OK)
		return input_error(r, argv[1]);
	IbfatSelector *predicted = NULL;
	if (ibfat_selector_for_job(f, NULL, argv[2], 1, (uint64_t)m, lat, bw, 2.0, K, margin, &predicted) != IBFAT_OK)
		return input_error(r, argv[2]);
	/* the shortlist, restricted to what this program implements */
	char names[NAMES_LEN] = "", all[NAMES_LEN] = "";
	const char *name;
	for (uint32_t i = 0; ibfat_selector_name(predicted, i, &name) == IBFAT_OK; i++) {
		char *dst = implemented(name) ? names : all;
		if (*dst)
			strncat(dst, ",", NAMES_LEN - strlen(dst) - 1);
		strncat(dst, name, NAMES_LEN - strlen(dst) - 1);
	}
	ibfat_selector_free(&predicted);
	ibfat_fabric_free(f);
	IbfatSelector *sel = NULL;
	if (ibfat_selector_new(names, K, margin, &sel) != IBFAT_OK)
		return input_error(r, "shortlist");
	uint8_t *send = malloc((size_t)p * m), *recv = malloc((size_t)p * m);
	uint64_t verified = 0, errors = 0;
	int learning_calls = 0;
	for (int c = 0; c < calls; c++) {
		uint32_t idx;
		int32_t learning = 0;
		uint32_t chosen;
		ibfat_selector_choice(sel, &chosen, &learning);
		learning_calls += learning;
		ibfat_selector_next(sel, &idx);
		ibfat_selector_name(sel, idx, &name);
		for (int d = 0; d < p; d++)
			for (size_t o = 0; o < m; o++)
				send[(size_t)d * m + o] = byte_of(r, d, o, c);
		memset(recv, 0, (size_t)p * m);
		MPI_Barrier(MPI_COMM_WORLD);
		double t0 = MPI_Wtime();
		run(name, send, recv, m, r, p);
		double dt = MPI_Wtime() - t0, slowest;
		MPI_Allreduce(&dt, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
		if (ibfat_selector_record(sel, slowest) != IBFAT_OK)
			return input_error(r, "record");
		for (int s = 0; s < p; s++)
			for (size_t o = 0; o < m; o++) {
				if (recv[(size_t)s * m + o] != byte_of(s, r, o, c))
					errors++;
				else if (s != r)
					verified++;
			}
	}
	uint64_t tv = 0, te = 0;
	MPI_Reduce(&verified, &tv, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	MPI_Reduce(&errors, &te, 1, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	uint32_t chosen = 0;
	int32_t learning = 0;
	const char *chosen_name = "none";
	if (ibfat_selector_choice(sel, &chosen, &learning) == IBFAT_OK)
		ibfat_selector_name(sel, chosen, &chosen_name);
	if (r == 0)
		printf("ibfat-mpi-select: ranks=%d bytes=%zu calls=%d shortlist=%s not_implemented=%s chosen=%s "
		       "learning_calls=%d bytes_verified=%" PRIu64 " errors=%" PRIu64 "\n",
		       p, m, calls, names, *all ? all : "-", chosen_name, learning_calls, tv, te);
	ibfat_selector_free(&sel);
	free(send);
	free(recv);
	MPI_Finalize();
	return te ? EXIT_MISMATCH : 0;
}
