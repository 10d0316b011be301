/*
 * virtio_blk.h - the virtio block driver (vioblk): QEMU's virtio-blk-pci.
 *
 *   vioblk_attach_all()   find every virtio block device on PCI, set each up
 *                         and register it as a block device ("vioblk0", ...)
 *                         with an interrupt; a device that answers oddly is
 *                         reported (kprintf) and left alone.  Boot, thread
 *                         context, after pci_init, before other CPUs start.
 *
 * What the self-tests reach besides (tests/kernel/virtio_selftest.c):
 * vioblk_config_error says what is wrong with a device's capacity and
 * queue size (NULL: nothing), and vioblk_fake_complete runs the real
 * completion path on a ring with no device behind it, the device's answer
 * being status, and returns the request's b_error; vioblk_fake_backlog
 * fills such a ring so that requests wait in the driver, and checks that
 * each completion posts the next in order (0: all well).
 */
#ifndef SONDE_VIRTIO_BLK_H
#define SONDE_VIRTIO_BLK_H

#include <stdint.h>

void vioblk_attach_all(void);
const char *vioblk_config_error(uint64_t capacity, unsigned qsize);
int vioblk_fake_complete(uint8_t status, uint32_t used_id);
int vioblk_fake_backlog(void);

#endif
