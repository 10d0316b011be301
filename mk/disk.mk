# mk/disk.mk - the disk image guests boot with.
#
# build/disk.img is an ext2 file system made by mke2fs -d (Debian's
# e2fsprogs) from the tree's disk/ folder: 1 KiB blocks, revision 1, no
# features beyond ext2's base ones that Sonde's driver (kernel/ext2.c) does
# not read.  QEMU attaches it as a virtio-blk disk (tools/dtrace gives each
# guest a fresh copy; make run uses the image itself), and Sonde mounts it
# at /disk.  DISK_SIZE is the image's size in KiB.

DISK_SIZE ?= 16384
DISK_SRC  := $(shell find disk -type f 2>/dev/null)
MKE2FS    := /usr/sbin/mke2fs

$(BUILD)/disk.img: $(DISK_SRC) mk/disk.mk
	@mkdir -p $(BUILD)
	rm -f $@.tmp
	$(MKE2FS) -q -F -t ext2 -b 1024 -I 256 -O none,sparse_super,filetype -E root_owner=0:0 \
	    -L sonde -d disk $@.tmp $(DISK_SIZE)
	mv $@.tmp $@

disk: $(BUILD)/disk.img
.PHONY: disk
