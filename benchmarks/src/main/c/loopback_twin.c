/*
 * The C twin of RcLoopbackBench: the same RC loopback pair (two QPs on one device connected to
 * each other, one CQ and one registered 4 KiB buffer per side, 64-byte messages) and the same
 * four single-threaded loops, straight libibverbs. scripts/perftest-compare.sh builds it with
 * gcc -O2 ... -libverbs and runs it in the same VM run as perftest and the JMH benchmarks, so the
 * table can tell the cost of the Java layer (ours / twin) from the cost of the method (one thread
 * playing both sides vs perftest's two processes).
 *
 * usage: loopback_twin [ITERATIONS]   (device: $VERBS_TEST_DEVICE or the first; GID index:
 * $VERBS_TEST_GID_INDEX, default 1 as on rxe). Prints one line per loop:
 * NAME SAMPLES P50_US MEAN_US (per operation: per one-way message for the ping-pongs, per work
 * request for the batch), after ITERATIONS/10 unrecorded warm-up rounds.
 */
#include <infiniband/verbs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>

#define SIZE 64
#define BATCH 16
#define DEPTH 64

static struct ibv_context *ctx;
static struct ibv_pd *pd;
static struct ibv_cq *cqa, *cqb;
static struct ibv_qp *qpa, *qpb;
static struct ibv_mr *mra, *mrb;
static char *bufa, *bufb;

static void die(const char *m) { perror(m); exit(1); }

static double now_us(void) {
    struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static struct ibv_qp *mkqp(struct ibv_cq *cq) {
    struct ibv_qp_init_attr a = {0};
    a.send_cq = cq; a.recv_cq = cq; a.qp_type = IBV_QPT_RC;
    a.cap.max_send_wr = DEPTH; a.cap.max_recv_wr = DEPTH; a.cap.max_send_sge = 1; a.cap.max_recv_sge = 1;
    struct ibv_qp *qp = ibv_create_qp(pd, &a);
    if (!qp) die("ibv_create_qp");
    return qp;
}

static void connect_qp(struct ibv_qp *qp, uint32_t dest, union ibv_gid *gid, int gidx, enum ibv_mtu mtu) {
    struct ibv_qp_attr a = {0};
    a.qp_state = IBV_QPS_INIT; a.port_num = 1; a.pkey_index = 0;
    a.qp_access_flags = IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS)) die("INIT");
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTR; a.path_mtu = mtu; a.dest_qp_num = dest; a.rq_psn = 0x1234;
    a.max_dest_rd_atomic = 1; a.min_rnr_timer = 12;
    a.ah_attr.is_global = 1; a.ah_attr.grh.dgid = *gid; a.ah_attr.grh.sgid_index = gidx;
    a.ah_attr.grh.hop_limit = 64; a.ah_attr.port_num = 1;
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_AV | IBV_QP_PATH_MTU | IBV_QP_DEST_QPN | IBV_QP_RQ_PSN
                      | IBV_QP_MAX_DEST_RD_ATOMIC | IBV_QP_MIN_RNR_TIMER)) die("RTR");
    memset(&a, 0, sizeof a);
    a.qp_state = IBV_QPS_RTS; a.sq_psn = 0x1234; a.timeout = 14; a.retry_cnt = 7; a.rnr_retry = 7; a.max_rd_atomic = 1;
    if (ibv_modify_qp(qp, &a, IBV_QP_STATE | IBV_QP_SQ_PSN | IBV_QP_TIMEOUT | IBV_QP_RETRY_CNT
                      | IBV_QP_RNR_RETRY | IBV_QP_MAX_QP_RD_ATOMIC)) die("RTS");
}

static struct ibv_wc wcs[BATCH];

/* Gives up after 5 s, as the Java side does: a lost completion fails instead of hanging. */
static void check_deadline(unsigned *spins, double *deadline, const char *what) {
    if ((++*spins & 0xFFF) != 0) return;
    if (*deadline == 0) { *deadline = now_us() + 5e6; return; }
    if (now_us() > *deadline) { fprintf(stderr, "loopback_twin: no %s within 5 s\n", what); exit(1); }
}

static int poll_some(struct ibv_cq *cq) {
    int n;
    unsigned spins = 0; double deadline = 0;
    while ((n = ibv_poll_cq(cq, BATCH, wcs)) == 0) check_deadline(&spins, &deadline, "completion");
    if (n < 0) die("ibv_poll_cq");
    for (int i = 0; i < n; i++) if (wcs[i].status) { fprintf(stderr, "wc status %d\n", wcs[i].status); exit(1); }
    return n;
}

static void mkwrite(struct ibv_send_wr *wr, struct ibv_sge *sge, uint64_t id, struct ibv_mr *from, size_t fo,
                    struct ibv_mr *to, size_t to_off, int signaled) {
    memset(wr, 0, sizeof *wr);
    sge->addr = (uintptr_t) from->addr + fo; sge->length = SIZE; sge->lkey = from->lkey;
    wr->wr_id = id; wr->sg_list = sge; wr->num_sge = 1; wr->opcode = IBV_WR_RDMA_WRITE;
    wr->send_flags = signaled ? IBV_SEND_SIGNALED : 0;
    wr->wr.rdma.remote_addr = (uintptr_t) to->addr + to_off; wr->wr.rdma.rkey = to->rkey;
}

static void await_word(volatile uint64_t *w, uint64_t v) {
    unsigned spins = 0; double deadline = 0;
    while (*w != v) check_deadline(&spins, &deadline, "RDMA WRITE arrival");
}

static int cmp(const void *a, const void *b) { double x = *(double *) a, y = *(double *) b; return x < y ? -1 : x > y; }

static void report(const char *name, double *t, int n, int ops) {
    double sum = 0;
    for (int i = 0; i < n; i++) { t[i] /= ops; sum += t[i]; }
    qsort(t, n, sizeof *t, cmp);
    printf("%s %d %.3f %.3f\n", name, n, t[n / 2], sum / n);
}

int main(int argc, char **argv) {
    int iters = argc > 1 ? atoi(argv[1]) : 20000;
    const char *devname = getenv("VERBS_TEST_DEVICE");
    int gidx = getenv("VERBS_TEST_GID_INDEX") ? atoi(getenv("VERBS_TEST_GID_INDEX")) : 1; /* rxe: RoCE v2 IPv4 */
    int num; struct ibv_device **list = ibv_get_device_list(&num);
    if (!list || num == 0) { fprintf(stderr, "no device\n"); return 1; }
    struct ibv_device *dev = list[0];
    for (int i = 0; devname && i < num; i++) if (!strcmp(ibv_get_device_name(list[i]), devname)) dev = list[i];
    ctx = ibv_open_device(dev); if (!ctx) die("open");
    struct ibv_port_attr pa; if (ibv_query_port(ctx, 1, &pa)) die("query_port");
    union ibv_gid gid; if (ibv_query_gid(ctx, 1, gidx, &gid)) die("query_gid");
    pd = ibv_alloc_pd(ctx);
    cqa = ibv_create_cq(ctx, 4 * DEPTH, NULL, NULL, 0); cqb = ibv_create_cq(ctx, 4 * DEPTH, NULL, NULL, 0);
    qpa = mkqp(cqa); qpb = mkqp(cqb);
    connect_qp(qpa, qpb->qp_num, &gid, gidx, pa.active_mtu);
    connect_qp(qpb, qpa->qp_num, &gid, gidx, pa.active_mtu);
    bufa = aligned_alloc(4096, 4096); bufb = aligned_alloc(4096, 4096);
    memset(bufa, 0, 4096); memset(bufb, 0, 4096);
    int acc = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ;
    mra = ibv_reg_mr(pd, bufa, 4096, acc); mrb = ibv_reg_mr(pd, bufb, 4096, acc);
    if (!mra || !mrb) die("reg_mr");

    struct ibv_send_wr sig, pa_wr, pb_wr, sa, sb, batch[BATCH], *bad;
    struct ibv_sge sig_sge, pa_sge, pb_sge, sa_sge, sb_sge, batch_sge[BATCH], ra_sge, rb_sge;
    struct ibv_recv_wr ra, rb, *rbad;
    mkwrite(&sig, &sig_sge, 3, mra, 128, mrb, 192, 1);
    mkwrite(&pa_wr, &pa_sge, 1, mra, 0, mrb, 64, 1);
    mkwrite(&pb_wr, &pb_sge, 2, mrb, 0, mra, 64, 1);
    mkwrite(&sa, &sa_sge, 4, mra, 256, mrb, 0, 1); sa.opcode = IBV_WR_SEND;
    mkwrite(&sb, &sb_sge, 5, mrb, 256, mra, 0, 1); sb.opcode = IBV_WR_SEND;
    for (int i = 0; i < BATCH; i++) {
        mkwrite(&batch[i], &batch_sge[i], 100 + i, mra, 1024 + i * SIZE, mrb, 1024 + i * SIZE, i == BATCH - 1);
        batch[i].next = i + 1 < BATCH ? &batch[i + 1] : NULL;
    }
    memset(&ra, 0, sizeof ra); memset(&rb, 0, sizeof rb);
    ra_sge.addr = (uintptr_t) bufa + 320; ra_sge.length = SIZE; ra_sge.lkey = mra->lkey;
    rb_sge.addr = (uintptr_t) bufb + 320; rb_sge.length = SIZE; rb_sge.lkey = mrb->lkey;
    ra.wr_id = 6; ra.sg_list = &ra_sge; ra.num_sge = 1; rb.wr_id = 7; rb.sg_list = &rb_sge; rb.num_sge = 1;
    for (int i = 0; i < 16; i++) { if (ibv_post_recv(qpa, &ra, &rbad) || ibv_post_recv(qpb, &rb, &rbad)) die("post_recv"); }

    double *t = malloc(sizeof(double) * iters);
    int warm = iters / 10;
    /* writeSignaled */
    for (int i = -warm; i < iters; i++) {
        double s = now_us();
        if (ibv_post_send(qpa, &sig, &bad)) die("post");
        poll_some(cqa);
        if (i >= 0) t[i] = now_us() - s;
    }
    report("writeSignaled", t, iters, 1);
    /* writePingPong: data arrival on each side, completions reaped after the round trip */
    volatile uint64_t *a_src = (uint64_t *) (bufa + 56), *b_src = (uint64_t *) (bufb + 56);
    volatile uint64_t *a_dst = (uint64_t *) (bufa + 64 + 56), *b_dst = (uint64_t *) (bufb + 64 + 56);
    for (int i = -warm; i < iters; i++) {
        uint64_t seq = (uint64_t) (i + warm + 1);
        double s = now_us();
        *a_src = seq;
        if (ibv_post_send(qpa, &pa_wr, &bad)) die("post");
        await_word(b_dst, seq);
        *b_src = seq;
        if (ibv_post_send(qpb, &pb_wr, &bad)) die("post");
        await_word(a_dst, seq);
        poll_some(cqa); poll_some(cqb);
        if (i >= 0) t[i] = now_us() - s;
    }
    report("writePingPong", t, iters, 2);
    /* sendPingPong */
    for (int i = -warm; i < iters; i++) {
        double s = now_us();
        if (ibv_post_send(qpa, &sa, &bad)) die("post");
        for (int got = 0; !got;) { int n = poll_some(cqb); for (int k = 0; k < n; k++) got |= wcs[k].opcode == IBV_WC_RECV; }
        if (ibv_post_recv(qpb, &rb, &rbad)) die("post_recv");
        if (ibv_post_send(qpb, &sb, &bad)) die("post");
        for (int got = 0; !got;) { int n = poll_some(cqa); for (int k = 0; k < n; k++) got |= wcs[k].opcode == IBV_WC_RECV; }
        if (ibv_post_recv(qpa, &ra, &rbad)) die("post_recv");
        if (i >= 0) t[i] = now_us() - s;
    }
    report("sendPingPong", t, iters, 2);
    /* writeBatch16 */
    int biters = iters / 4;
    for (int i = -warm / 4; i < biters; i++) {
        double s = now_us();
        if (ibv_post_send(qpa, &batch[0], &bad)) die("post");
        for (int got = 0; !got;) { int n = poll_some(cqa); for (int k = 0; k < n; k++) got |= wcs[k].wr_id == 100 + BATCH - 1; }
        if (i >= 0) t[i] = now_us() - s;
    }
    report("writeBatch16", t, biters, BATCH);
    return 0;
}
