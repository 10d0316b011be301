/*
 * virtio_blk.c - the virtio block driver (vioblk) over PCI's legacy
 * interface: QEMU's virtio-blk-pci as a block device (kernel/blkdev.h).
 *
 * Theory.  QEMU's virtio-blk-pci on the pc machine is a transitional
 * device (vendor 0x1af4, device 0x1001): besides the modern capabilities it
 * keeps the legacy register block in I/O BAR0, which is all this driver
 * uses (virtio 1.x spec, "Legacy Interfaces"):
 *
 *   0x00 device features   0x04 driver features   0x08 queue PFN
 *   0x0c queue size        0x0e queue select      0x10 queue notify
 *   0x12 device status     0x13 ISR (reading acknowledges)
 *   0x14 device config (no MSI-X): capacity, 64-bit, in 512-byte sectors
 *
 * Set-up: reset, ACKNOWLEDGE, DRIVER, take no feature but read VIRTIO_BLK_F_RO,
 * size queue 0, give it its ring, DRIVER_OK.  The legacy ring is one
 * physically contiguous area at a page-aligned address whose size the
 * device fixes (QEMU: 256 entries, 3 pages): descriptors, then the
 * available ring, then, at the next page, the used ring.  Sonde has no
 * allocator of contiguous pages, so each device's ring and its request
 * headers live in page-aligned arrays in the kernel image (VIOBLK_MAX
 * devices, VQ_MAX entries at most), whose physical pages are contiguous.
 *
 * A request is a descriptor chain: a 16-byte header (type, sector) the
 * device reads, one descriptor per physically contiguous piece of b_addr
 * (pages are looked up with virt_to_phys one by one, neighbours merged),
 * and one status byte the device writes.  The chain's head descriptor
 * names the request: its header, status byte and struct buf are kept at
 * that index.  Requests come from any CPU at once; a spinlock per device
 * guards the free-descriptor list, the rings and the waiting list.  When
 * the ring has too few free descriptors, the buf waits on a driver-side
 * list (linked through b_drv) and is posted, in order, as completions
 * free them.
 *
 * Completion: the device's PCI interrupt (level-triggered, maybe shared)
 * runs vioblk_intr through dev_intr.  Reading the ISR both tells whether
 * this device interrupted and lowers the line; then every new used-ring
 * entry ends a request: a status other than OK becomes EIO (anything but
 * IOERR or UNSUPP is reported as unexpected), its descriptors go back on the
 * free list, and waiting bufs are posted.  biodone is called after the
 * lock is dropped, since a b_iodone callback may issue the next request.
 *
 * Bad answers (capacity 0, queue size 0 or too big, no I/O BAR, no
 * interrupt line, a used entry naming no request) get a kprintf and the
 * device is not attached, or the entry is ignored: never a crash.
 *
 * What not: the modern (virtio 1.0) interface, MSI-X, indirect
 * descriptors, event indices, flush/discard, more than one queue.
 *
 * Context: vioblk_attach_all at boot; vioblk_strategy in thread context
 * (several CPUs at once); vioblk_intr in interrupt context.
 *
 * Tests: self-tests blk_virtio, blk_virtio_bad_input, blk_virtio_backlog
 * (tests/kernel/virtio_selftest.c)
 */
#include "arch/arch.h"
#include "kernel/blkdev.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pci.h"
#include "kernel/proc.h"          /* errno values */
#include "kernel/virtio_blk.h"

#define VIRTIO_VENDOR        0x1af4
#define VIRTIO_BLK_LEGACY    0x1001      /* transitional block device */
#define VIRTIO_BLK_MODERN    0x1042
#define VIRTIO_SUBSYS_BLK    2

/* Legacy registers, offsets in I/O BAR0. */
#define VIO_DEV_FEATURES     0x00
#define VIO_DRV_FEATURES     0x04
#define VIO_QUEUE_PFN        0x08
#define VIO_QUEUE_SIZE       0x0c
#define VIO_QUEUE_SEL        0x0e
#define VIO_QUEUE_NOTIFY     0x10
#define VIO_STATUS           0x12
#define VIO_ISR              0x13
#define VIO_CONFIG           0x14        /* without MSI-X */

#define VIO_S_ACK            1
#define VIO_S_DRIVER         2
#define VIO_S_DRIVER_OK      4
#define VIO_S_FAILED         128
#define VIO_ISR_QUEUE        1
#define VIO_ISR_CONFIG       2

#define VIRTIO_BLK_F_RO      (1u << 5)
#define VIRTIO_BLK_T_IN      0
#define VIRTIO_BLK_T_OUT     1
#define VIRTIO_BLK_S_OK      0
#define VIRTIO_BLK_S_IOERR   1
#define VIRTIO_BLK_S_UNSUPP  2

#define VRING_DESC_F_NEXT    1
#define VRING_DESC_F_WRITE   2           /* the device writes this buffer */

#define VIOBLK_MAX           3           /* devices: a data disk, the UEFI boot ESP, one more */
#define VQ_MAX               256         /* entries in a queue */
#define VQ_ALIGN             4096        /* the legacy used ring's alignment */
#define VQ_BYTES             (3 * 4096)  /* VQ_MAX entries: the used ring at 8192, 2054 bytes */
#define FAKE_QSIZE           8
#define FAKE_BYTES           (2 * 4096)  /* FAKE_QSIZE entries: the used ring at 4096 */
#define VIOBLK_MAX_SEGS      64          /* data descriptors in one request */

struct vring_desc {
	uint64_t addr;
	uint32_t len;
	uint16_t flags;
	uint16_t next;
};

struct vring_avail {
	uint16_t flags;
	uint16_t idx;
	uint16_t ring[];
};

struct vring_used_elem {
	uint32_t id;
	uint32_t len;
};

struct vring_used {
	uint16_t flags;
	uint16_t idx;
	struct vring_used_elem ring[];
};

/* A request's header and status byte, read and written by the device: 32 bytes, so never across a page. */
struct vioblk_req {
	uint32_t vr_type;
	uint32_t vr_reserved;
	uint64_t vr_sector;
	uint8_t vr_status;
	uint8_t vr_pad[15];
};

struct vioblk {
	struct blkdev vb_bd;
	const struct pci_dev *vb_pci;         /* NULL: the self-test's fake */
	uint32_t vb_io;                       /* BAR0's first port */
	unsigned vb_qsize;
	struct vring_desc *vb_desc;
	struct vring_avail *vb_avail;
	struct vring_used *vb_used;
	struct vioblk_req *vb_req;            /* vb_qsize of them, by head descriptor */
	struct buf *vb_bufs[VQ_MAX];          /* the request each head descriptor carries */
	uint16_t vb_free;                     /* first free descriptor */
	unsigned vb_nfree;
	uint16_t vb_avail_idx;                /* our copy of avail->idx */
	uint16_t vb_used_seen;                /* used entries consumed */
	struct buf *vb_wait_head, *vb_wait_tail;   /* waiting for descriptors (b_drv links) */
	spinlock_t vb_lock;
	char vb_path[64];
};

static uint8_t vq_mem[VIOBLK_MAX][VQ_BYTES] __attribute__((aligned(4096)));
static struct vioblk_req vq_reqs[VIOBLK_MAX][VQ_MAX] __attribute__((aligned(4096)));
/* The self-test's fake device has a small queue of its own (the image's size counts on sparc64). */
static uint8_t fake_mem[FAKE_BYTES] __attribute__((aligned(4096)));
static struct vioblk_req fake_reqs[FAKE_QSIZE] __attribute__((aligned(512)));
static struct vioblk vioblks[VIOBLK_MAX + 1];   /* the last: the self-test's fake */
static int vioblk_n;

static uint8_t io_read8(struct vioblk *vb, int reg) { return arch_pci_io_read8(vb->vb_io + reg); }
static uint16_t io_read16(struct vioblk *vb, int reg) { return arch_pci_io_read16(vb->vb_io + reg); }
static uint32_t io_read32(struct vioblk *vb, int reg) { return arch_pci_io_read32(vb->vb_io + reg); }
static void io_write8(struct vioblk *vb, int reg, uint8_t v) { arch_pci_io_write8(vb->vb_io + reg, v); }
static void io_write16(struct vioblk *vb, int reg, uint16_t v) { arch_pci_io_write16(vb->vb_io + reg, v); }
static void io_write32(struct vioblk *vb, int reg, uint32_t v) { arch_pci_io_write32(vb->vb_io + reg, v); }

static uint64_t vq_used_offset(unsigned qsize)
{
	uint64_t end_avail = 16 * (uint64_t)qsize + 6 + 2 * (uint64_t)qsize;
	return (end_avail + VQ_ALIGN - 1) & ~(uint64_t)(VQ_ALIGN - 1);
}

const char *vioblk_config_error(uint64_t capacity, unsigned qsize)
{
	if (capacity == 0)
		return "capacity is 0 sectors";
	if (qsize == 0)
		return "queue 0 has size 0";
	if (qsize > VQ_MAX)
		return "queue 0 is larger than 256 entries";
	if (qsize & (qsize - 1))
		return "queue 0's size is not a power of 2";
	if (vq_used_offset(qsize) + 6 + 8 * (uint64_t)qsize > VQ_BYTES)
		return "queue 0 does not fit its area";
	return NULL;
}

/* vq_setup: lay out vb's ring in area (zeroed) and chain every descriptor on the free list. */
static void vq_setup(struct vioblk *vb, uint8_t *area, size_t bytes, struct vioblk_req *reqs,
                     unsigned qsize)
{
	memset(area, 0, bytes);
	memset(reqs, 0, sizeof(struct vioblk_req) * qsize);
	vb->vb_qsize = qsize;
	vb->vb_desc = (struct vring_desc *)area;
	vb->vb_avail = (struct vring_avail *)(area + 16 * qsize);
	vb->vb_used = (struct vring_used *)(area + vq_used_offset(qsize));
	vb->vb_req = reqs;
	for (unsigned i = 0; i < qsize; i++)
		vb->vb_desc[i].next = (uint16_t)(i + 1);
	vb->vb_free = 0;
	vb->vb_nfree = qsize;
	vb->vb_avail_idx = 0;
	vb->vb_used_seen = 0;
	vb->vb_wait_head = vb->vb_wait_tail = NULL;
	spin_init(&vb->vb_lock, "vioblk");
}

/*
 * buf_segments: how many physically contiguous pieces b_addr's b_bcount
 * bytes are in; with pa/len non-NULL, also what they are.  -1 if a page has
 * no physical address or there are more than VIOBLK_MAX_SEGS pieces.
 */
static int buf_segments(const struct buf *bp, uint64_t *pa, uint32_t *len)
{
	const uint8_t *p = bp->b_addr;
	uint64_t left = bp->b_bcount, cur_pa = 0, cur_len = 0;
	int n = 0;

	while (left > 0) {
		uint64_t in_page = PAGE_SIZE - ((uint64_t)p & (PAGE_SIZE - 1));
		uint64_t chunk = in_page < left ? in_page : left;
		uint64_t phys = virt_to_phys(p);
		if (phys == 0)
			return -1;
		if (cur_len > 0 && cur_pa + cur_len == phys && cur_len + chunk <= 0x80000000u) {
			cur_len += chunk;
		} else {
			if (cur_len > 0 && pa != NULL) {
				pa[n - 1] = cur_pa;
				len[n - 1] = (uint32_t)cur_len;
			}
			if (++n > VIOBLK_MAX_SEGS)
				return -1;
			cur_pa = phys;
			cur_len = chunk;
		}
		p += chunk;
		left -= chunk;
	}
	if (cur_len > 0 && pa != NULL) {
		pa[n - 1] = cur_pa;
		len[n - 1] = (uint32_t)cur_len;
	}
	return n;
}

static uint16_t desc_take(struct vioblk *vb)
{
	uint16_t d = vb->vb_free;

	vb->vb_free = vb->vb_desc[d].next;
	vb->vb_nfree--;
	return d;
}

/* desc_chain_free: put the chain starting at head back on the free list. */
static void desc_chain_free(struct vioblk *vb, uint16_t head)
{
	uint16_t d = head;
	unsigned n = 0;

	for (;;) {
		struct vring_desc *dp = &vb->vb_desc[d];
		bool more = dp->flags & VRING_DESC_F_NEXT;
		uint16_t next = dp->next;
		dp->flags = 0;
		dp->next = vb->vb_free;
		vb->vb_free = d;
		vb->vb_nfree++;
		if (!more || ++n >= vb->vb_qsize || next >= vb->vb_qsize)
			break;
		d = next;
	}
}

/*
 * vq_post: put bp on the ring if it has room (2 + its pieces); false if
 * not (it waits).  vb_lock held.
 */
static bool vq_post(struct vioblk *vb, struct buf *bp)
{
	uint64_t pa[VIOBLK_MAX_SEGS];
	uint32_t len[VIOBLK_MAX_SEGS];
	int nseg = buf_segments(bp, pa, len);
	bool read = !(bp->b_flags & B_WRITE);

	if (vb->vb_nfree < (unsigned)nseg + 2)
		return false;
	uint16_t head = desc_take(vb), prev = head;
	struct vioblk_req *rq = &vb->vb_req[head];
	rq->vr_type = read ? VIRTIO_BLK_T_IN : VIRTIO_BLK_T_OUT;
	rq->vr_reserved = 0;
	rq->vr_sector = bp->b_blkno;
	rq->vr_status = 0xff;                 /* what no device answers: seen if it answers nothing */
	vb->vb_desc[head] = (struct vring_desc){ virt_to_phys(rq), 16, VRING_DESC_F_NEXT, 0 };
	for (int i = 0; i <= nseg; i++) {
		uint16_t d = desc_take(vb);
		vb->vb_desc[prev].next = d;
		if (i < nseg)
			vb->vb_desc[d] = (struct vring_desc){ pa[i], len[i],
			        (uint16_t)(VRING_DESC_F_NEXT | (read ? VRING_DESC_F_WRITE : 0)), 0 };
		else
			vb->vb_desc[d] = (struct vring_desc){ virt_to_phys(&rq->vr_status), 1,
			        VRING_DESC_F_WRITE, 0 };
		prev = d;
	}
	vb->vb_bufs[head] = bp;
	vb->vb_avail->ring[vb->vb_avail_idx % vb->vb_qsize] = head;
	vb->vb_avail_idx++;
	__atomic_store_n(&vb->vb_avail->idx, vb->vb_avail_idx, __ATOMIC_RELEASE);
	return true;
}

static void vq_notify(struct vioblk *vb)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (vb->vb_pci != NULL)
		io_write16(vb, VIO_QUEUE_NOTIFY, 0);
}

/* vq_post_waiting: post waiting bufs, oldest first, while they fit; how many.  vb_lock held. */
static int vq_post_waiting(struct vioblk *vb)
{
	int n = 0;

	while (vb->vb_wait_head != NULL && vq_post(vb, vb->vb_wait_head)) {
		vb->vb_wait_head = vb->vb_wait_head->b_drv;
		if (vb->vb_wait_head == NULL)
			vb->vb_wait_tail = NULL;
		n++;
	}
	return n;
}

static int vioblk_strategy(struct blkdev *bd, struct buf *bp)
{
	struct vioblk *vb = bd->bd_drv;
	int nseg = buf_segments(bp, NULL, NULL);

	if (nseg < 0 || (unsigned)nseg + 2 > vb->vb_qsize) {
		kprintf("%s: request at sector %lu: %lu bytes in pieces the ring cannot carry\n",
		        bd->bd_statname, bp->b_blkno, bp->b_bcount);
		return -EINVAL;
	}
	bp->b_drv = NULL;
	spin_lock(&vb->vb_lock);
	bool posted = vb->vb_wait_head == NULL && vq_post(vb, bp);
	if (!posted) {                        /* keep the order: behind those waiting */
		if (vb->vb_wait_tail != NULL)
			vb->vb_wait_tail->b_drv = bp;
		else
			vb->vb_wait_head = bp;
		vb->vb_wait_tail = bp;
	}
	spin_unlock(&vb->vb_lock);
	if (posted)
		vq_notify(vb);
	return 0;
}

/* vq_reap: end every request the device put on the used ring; the bufs on *done (b_drv links).  vb_lock held. */
static void vq_reap(struct vioblk *vb, struct buf **done)
{
	uint16_t used_idx = __atomic_load_n(&vb->vb_used->idx, __ATOMIC_ACQUIRE);

	while (vb->vb_used_seen != used_idx) {
		struct vring_used_elem e = vb->vb_used->ring[vb->vb_used_seen % vb->vb_qsize];
		vb->vb_used_seen++;
		if (e.id >= vb->vb_qsize || vb->vb_bufs[e.id] == NULL) {
			kprintf("%s: the device completed descriptor %u, which carries no request: ignored\n",
			        vb->vb_bd.bd_statname, e.id);
			continue;
		}
		struct buf *bp = vb->vb_bufs[e.id];
		uint8_t status = vb->vb_req[e.id].vr_status;
		vb->vb_bufs[e.id] = NULL;
		desc_chain_free(vb, (uint16_t)e.id);
		if (status != VIRTIO_BLK_S_OK) {
			if (status == VIRTIO_BLK_S_IOERR || status == VIRTIO_BLK_S_UNSUPP)
				kprintf("%s: %s at sector %lu failed: %s\n", vb->vb_bd.bd_statname,
				        (bp->b_flags & B_WRITE) ? "write" : "read", bp->b_blkno,
				        status == VIRTIO_BLK_S_IOERR ? "I/O error" : "unsupported");
			else
				kprintf("%s: %s at sector %lu: unexpected status 0x%x from the device\n",
				        vb->vb_bd.bd_statname, (bp->b_flags & B_WRITE) ? "write" : "read",
				        bp->b_blkno, status);
			bp->b_error = EIO;
			bp->b_resid = bp->b_bcount;
		}
		bp->b_drv = *done;
		*done = bp;
	}
}

/* vioblk_complete: reap, post what waits, and call biodone outside the lock. */
static void vioblk_complete(struct vioblk *vb)
{
	struct buf *done = NULL;

	spin_lock(&vb->vb_lock);
	vq_reap(vb, &done);
	int posted = vq_post_waiting(vb);
	spin_unlock(&vb->vb_lock);
	if (posted > 0)
		vq_notify(vb);
	while (done != NULL) {
		struct buf *bp = done;
		done = bp->b_drv;
		bp->b_drv = NULL;
		biodone(bp);
	}
}

static void vioblk_intr(void *arg)
{
	struct vioblk *vb = arg;
	uint8_t isr = io_read8(vb, VIO_ISR);  /* reading it lowers the line */

	if (isr == 0)
		return;                           /* another device on a shared line */
	if (isr & VIO_ISR_CONFIG)
		kprintf("%s: the device's configuration changed (ignored)\n", vb->vb_bd.bd_statname);
	vioblk_complete(vb);
}

/* vioblk_fail: tell the device the driver gave up on it, and say why. */
static void vioblk_fail(struct vioblk *vb, const char *why)
{
	const struct pci_dev *pd = vb->vb_pci;

	io_write8(vb, VIO_STATUS, VIO_S_FAILED);
	kprintf("vioblk: pci %02x:%02x.%d: %s: not attached\n", pd->pd_bus, pd->pd_dev, pd->pd_fn, why);
}

/* vioblk_attach: set up one legacy device; false (reported) if it cannot be used. */
static bool vioblk_attach(const struct pci_dev *pd)
{
	if (vioblk_n == VIOBLK_MAX) {
		kprintf("vioblk: pci %02x:%02x.%d: more than %d disks: not attached\n",
		        pd->pd_bus, pd->pd_dev, pd->pd_fn, VIOBLK_MAX);
		return false;
	}
	if (!(pd->pd_bar[0] & 1) || (pd->pd_bar[0] & ~3u) == 0) {
		kprintf("vioblk: pci %02x:%02x.%d: BAR0 is not an I/O BAR: not attached\n",
		        pd->pd_bus, pd->pd_dev, pd->pd_fn);
		return false;
	}
	struct vioblk *vb = &vioblks[vioblk_n];
	memset(vb, 0, sizeof *vb);
	vb->vb_pci = pd;
	vb->vb_io = pd->pd_bar[0] & ~3u;
	pci_enable(pd, PCI_CMD_IO | PCI_CMD_MASTER);
	io_write8(vb, VIO_STATUS, 0);                         /* reset */
	io_write8(vb, VIO_STATUS, VIO_S_ACK);
	io_write8(vb, VIO_STATUS, VIO_S_ACK | VIO_S_DRIVER);
	uint32_t features = io_read32(vb, VIO_DEV_FEATURES);
	io_write32(vb, VIO_DRV_FEATURES, features & VIRTIO_BLK_F_RO);
	uint64_t capacity = io_read32(vb, VIO_CONFIG) | (uint64_t)io_read32(vb, VIO_CONFIG + 4) << 32;
	io_write16(vb, VIO_QUEUE_SEL, 0);
	unsigned qsize = io_read16(vb, VIO_QUEUE_SIZE);
	const char *err = vioblk_config_error(capacity, qsize);
	if (err != NULL) {
		vioblk_fail(vb, err);
		return false;
	}
	if (pd->pd_irq_pin == 0 || pd->pd_irq_line == 0 || pd->pd_irq_line == 0xff) {
		vioblk_fail(vb, "no interrupt line (the firmware set none)");
		return false;
	}
	vq_setup(vb, vq_mem[vioblk_n], VQ_BYTES, vq_reqs[vioblk_n], qsize);
	io_write32(vb, VIO_QUEUE_PFN, (uint32_t)(virt_to_phys(vq_mem[vioblk_n]) / VQ_ALIGN));

	struct blkdev *bd = &vb->vb_bd;
	bd->bd_name = "vioblk";
	bd->bd_nsect = capacity;
	bd->bd_readonly = (features & VIRTIO_BLK_F_RO) != 0;
	bd->bd_strategy = vioblk_strategy;
	bd->bd_drv = vb;
	if (pd->pd_fn == 0)
		ksnprintf(vb->vb_path, sizeof vb->vb_path, "/devices/pci@0,0/pci%x,%x@%x:a",
		          pd->pd_subvendor, pd->pd_subsys, pd->pd_dev);
	else
		ksnprintf(vb->vb_path, sizeof vb->vb_path, "/devices/pci@0,0/pci%x,%x@%x,%x:a",
		          pd->pd_subvendor, pd->pd_subsys, pd->pd_dev, pd->pd_fn);
	bd->bd_pathname = vb->vb_path;
	dev_attach(&bd->bd_dip, "disk", "vioblk");
	ksnprintf(bd->bd_statname, sizeof bd->bd_statname, "vioblk%d", bd->bd_dip.devi_instance);
	if (!arch_pci_intr_on(pd->pd_irq_line, &bd->bd_dip, vioblk_intr, vb)) {
		io_write32(vb, VIO_QUEUE_PFN, 0);
		vioblk_fail(vb, "its interrupt cannot be routed");
		return false;
	}
	io_write8(vb, VIO_STATUS, VIO_S_ACK | VIO_S_DRIVER | VIO_S_DRIVER_OK);
	vioblk_n++;
	blk_register(bd);
	return true;
}

void vioblk_attach_all(void)
{
	for (int i = 0; i < pci_count(); i++) {
		const struct pci_dev *pd = pci_get(i);
		if (pd->pd_vendor != VIRTIO_VENDOR)
			continue;
		if (pd->pd_device == VIRTIO_BLK_MODERN)
			kprintf("vioblk: pci %02x:%02x.%d: a modern-only virtio disk (no legacy interface): "
			        "not supported\n", pd->pd_bus, pd->pd_dev, pd->pd_fn);
		else if (pd->pd_device == VIRTIO_BLK_LEGACY && pd->pd_subsys == VIRTIO_SUBSYS_BLK)
			vioblk_attach(pd);
	}
}

/* fake_setup: the spare slot as a device of 8 entries that nothing serves. */
static struct vioblk *fake_setup(void)
{
	struct vioblk *vb = &vioblks[VIOBLK_MAX];

	memset(vb, 0, sizeof *vb);
	vq_setup(vb, fake_mem, sizeof fake_mem, fake_reqs, FAKE_QSIZE);
	vb->vb_bd.bd_name = "vioblk";
	ksnprintf(vb->vb_bd.bd_statname, sizeof vb->vb_bd.bd_statname, "vioblk-fake");
	vb->vb_bd.bd_nsect = 16;
	vb->vb_bd.bd_strategy = vioblk_strategy;
	vb->vb_bd.bd_drv = vb;
	spin_init(&vb->vb_bd.bd_lock, "blkdev");
	return vb;
}

/* fake_answer: the device ends the request on head descriptor head with status. */
static void fake_answer(struct vioblk *vb, uint16_t head, uint8_t status)
{
	uint16_t u = vb->vb_used->idx;

	vb->vb_req[head].vr_status = status;
	vb->vb_used->ring[u % vb->vb_qsize] = (struct vring_used_elem){ head, 1 };
	__atomic_store_n(&vb->vb_used->idx, (uint16_t)(u + 1), __ATOMIC_RELEASE);
}

/*
 * vioblk_fake_backlog: four one-sector reads on the fake ring of 8
 * descriptors (3 each): two are posted, two wait; each completion posts
 * the next, in order.  0 if all went so, else the step that went wrong.
 */
int vioblk_fake_backlog(void)
{
	static uint8_t data[4][BLK_SECTOR];
	struct vioblk *vb = fake_setup();
	struct buf b[4];

	for (int i = 0; i < 4; i++) {
		bioinit(&b[i]);
		b[i].b_dev = &vb->vb_bd;
		b[i].b_addr = data[i];
		b[i].b_bcount = BLK_SECTOR;
		b[i].b_blkno = (uint64_t)i;
		b[i].b_flags = B_READ;
		if (blk_strategy(&b[i]) < 0)
			return 1;
	}
	if (vb->vb_avail_idx != 2 || vb->vb_wait_head != &b[2] || vb->vb_wait_tail != &b[3])
		return 2;
	for (int i = 0; i < 4; i++) {
		uint16_t head = vb->vb_avail->ring[i % vb->vb_qsize];
		if (vb->vb_bufs[head] != &b[i] || vb->vb_req[head].vr_sector != (uint64_t)i)
			return 3;
		fake_answer(vb, head, 0);
		vioblk_complete(vb);
		if (!(b[i].b_flags & B_DONE) || b[i].b_error != 0)
			return 4;
		if (vb->vb_avail_idx != (i + 3 < 4 ? i + 3 : 4))
			return 5;
	}
	if (vb->vb_nfree != 8 || vb->vb_wait_head != NULL || vb->vb_wait_tail != NULL)
		return 6;
	return 0;
}

/*
 * vioblk_fake_complete: one read posted on a ring no device serves (the
 * spare slot), answered as a device would with used entry used_id and the
 * given status, then the real completion path; the buf's b_error, or -1 if
 * it did not complete.  For the self-test of odd device answers.
 */
int vioblk_fake_complete(uint8_t status, uint32_t used_id)
{
	static uint8_t data[BLK_SECTOR];
	struct vioblk *vb = fake_setup();
	struct buf b;

	bioinit(&b);
	b.b_dev = &vb->vb_bd;
	b.b_addr = data;
	b.b_bcount = BLK_SECTOR;
	b.b_flags = B_READ;
	if (blk_strategy(&b) < 0)
		return -1;
	uint16_t head = vb->vb_avail->ring[0];
	vb->vb_req[head].vr_status = status;
	vb->vb_used->ring[0] = (struct vring_used_elem){ used_id == UINT32_MAX ? head : used_id, 1 };
	__atomic_store_n(&vb->vb_used->idx, 1, __ATOMIC_RELEASE);
	vioblk_complete(vb);
	if (!(b.b_flags & B_DONE)) {                  /* the entry named no request: end it by hand */
		fake_answer(vb, head, 0);
		vioblk_complete(vb);
		return -1;
	}
	return b.b_error;
}
