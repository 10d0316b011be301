; boot.asm - from the boot loader to kmain().
;
; Two loaders reach this file in 32-bit protected mode with paging off:
;   GRUB (multiboot2): eax = 0x36d76289, ebx = physical address of the
;                      multiboot2 information structure; entry mb2_entry.
;   QEMU -kernel (PVH): ebx = physical address of struct hvm_start_info, whose
;                      first word is 0x336ec578; entry pvh_entry (ELF note).
; Both go to common32, which builds boot page tables (the first GiB mapped
; twice: at 0 and at KERNEL_VMA, with 2 MiB pages), enters long mode, jumps
; to the higher half and calls kmain(magic, info_phys).  vm_init() replaces
; these tables with the kernel's own once C runs.
;
; The third, Sonde's UEFI loader (boot/efi/), arrives in 64-bit mode on the
; firmware's identity-mapped page tables: eax = SONDE_EFI_MAGIC, ebx =
; physical address of struct sonde_handoff (boot/efi/handoff.h); entry
; efi_entry, found through the "Sonde" ELF note.  It builds the same tables
; (BOOT_TABLES_BUILD), loads them and its GDT, and joins the others at
; long_entry.
;
; Tests: tests/e2e/test_boot.py (GRUB and direct PVH boots)

KERNEL_VMA      equ 0xffffffff80000000
MB2_MAGIC       equ 0xe85250d6
MB2_ARCH_I386   equ 0
PVH_MAGIC       equ 0x336ec578
XEN_ELFNOTE_PHYS32_ENTRY equ 18
SONDE_NOTE_EFI_ENTRY equ 0x53450001   ; boot/efi/handoff.h

; ---------------------------------------------------------------- headers
section .multiboot2 progbits alloc noexec nowrite align=8
mb2_header:
	dd MB2_MAGIC
	dd MB2_ARCH_I386
	dd mb2_header_end - mb2_header
	dd -(MB2_MAGIC + MB2_ARCH_I386 + (mb2_header_end - mb2_header))
	align 8
	dw 3, 0                 ; entry address tag
	dd 12
	dd mb2_entry
	align 8
	dw 0, 0                 ; end tag
	dd 8
mb2_header_end:

section .note.pvh note alloc noexec nowrite align=4
	dd 4                    ; namesz
	dd 4                    ; descsz
	dd XEN_ELFNOTE_PHYS32_ENTRY
	db "Xen", 0
	dd pvh_entry
	align 4                 ; the UEFI loader's entry (boot/efi/handoff.h)
	dd 6                    ; namesz
	dd 8                    ; descsz
	dd SONDE_NOTE_EFI_ENTRY
	db "Sonde", 0, 0, 0
	dq efi_entry

; ---------------------------------------------------------------- 32-bit
; BOOT_TABLES_BUILD: zero the boot page tables (4 pages), then fill them.
; Assembled twice, in 32-bit (common32) and 64-bit (efi_entry) code: only
; 32-bit registers and absolute addresses below 4 GiB, which both modes
; encode alike (writes to a 32-bit register clear its upper half in 64-bit
; mode, so rdi/rcx, which rep stosd and loop use there, are right too).
; Clobbers eax, ecx, edi.
%macro BOOT_TABLES_BUILD 0
	mov edi, boot_pml4
	xor eax, eax
	mov ecx, 4 * 4096 / 4
	rep stosd

	mov eax, boot_pdpt_low
	or eax, 3
	mov [boot_pml4], eax
	mov eax, boot_pdpt_high
	or eax, 3
	mov [boot_pml4 + 511 * 8], eax
	mov eax, boot_pd
	or eax, 3
	mov [boot_pdpt_low], eax
	mov [boot_pdpt_high + 510 * 8], eax

	mov edi, boot_pd        ; 512 x 2 MiB: present, writable, large
	mov eax, 0x83
	mov ecx, 512
%%fill:
	mov [edi], eax
	mov dword [edi + 4], 0
	add eax, 0x200000
	add edi, 8
	loop %%fill
%endmacro

section .boot.text progbits alloc exec nowrite align=16
bits 32
global mb2_entry
mb2_entry:
	jmp common32            ; eax, ebx already as kmain wants them

global pvh_entry
pvh_entry:
	mov eax, PVH_MAGIC
	jmp common32

common32:
	cli
	cld
	mov esp, boot_stack32_top
	mov [boot_magic], eax
	mov [boot_info], ebx

	BOOT_TABLES_BUILD
	mov eax, boot_pml4
	mov cr3, eax
	mov eax, cr4
	or eax, (1 << 5)        ; PAE
	mov cr4, eax
	mov ecx, 0xc0000080     ; EFER
	rdmsr
	or eax, (1 << 8) | (1 << 11) ; LME, NXE
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16) | 1 ; PG, WP, PE
	mov cr0, eax
	lgdt [boot_gdt_ptr]
	jmp 0x08:long_entry

bits 64
long_entry:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	xor ax, ax
	mov fs, ax
	mov gs, ax
	mov rax, higher_half
	jmp rax

; The UEFI loader's entry (boot/efi/handoff.h): already in 64-bit mode, on
; the firmware's identity-mapped tables, interrupts off.  Our boot stack and
; tables lie in the first GiB, which both the firmware's tables and ours
; map at their physical addresses, so switching CR3 here is seamless.
global efi_entry
efi_entry:
	cli
	cld
	mov esp, boot_stack32_top
	mov [boot_magic], eax
	mov [boot_info], ebx
	BOOT_TABLES_BUILD
	mov ecx, 0xc0000080     ; EFER: NXE (LME, LMA are on already)
	rdmsr
	or eax, (1 << 11)
	wrmsr
	mov eax, boot_pml4
	mov cr3, rax
	; The firmware's leftovers (SSE enabled, global pages, NE, MP) go: the
	; kernel starts from the same CR0 and CR4 as on the 32-bit paths.
	mov eax, (1 << 5)       ; CR4: PAE
	mov cr4, rax
	mov eax, (1 << 31) | (1 << 16) | (1 << 4) | 1 ; CR0: PG, WP, ET, PE
	mov cr0, rax
	lgdt [boot_gdt_ptr64]
	push 0x08               ; reload cs from our GDT with a far return
	push long_entry
	retfq

section .boot.data progbits alloc noexec write align=16
boot_gdt:
	dq 0
	dq 0x00af9a000000ffff   ; 0x08: 64-bit code
	dq 0x00cf92000000ffff   ; 0x10: data
boot_gdt_ptr:
	dw boot_gdt_ptr - boot_gdt - 1
	dd boot_gdt
boot_gdt_ptr64:             ; lgdt in 64-bit mode reads an 8-byte base
	dw boot_gdt_ptr - boot_gdt - 1
	dq boot_gdt
boot_magic: dd 0
boot_info:  dd 0

section .boot.bss nobits alloc noexec write align=4096
boot_pml4:      resb 4096
boot_pdpt_low:  resb 4096
boot_pdpt_high: resb 4096
boot_pd:        resb 4096
boot_stack32:   resb 1024
boot_stack32_top:

; ---------------------------------------------------------------- 64-bit
section .text.entry progbits alloc exec nowrite align=16
extern kmain

higher_half:
	mov rsp, boot_stack_top
	xor ebp, ebp
	push rbp                ; a zero return address ends backtraces
	mov edi, [rel boot_magic_hi]
	mov esi, [rel boot_info_hi]
	call kmain
.hang:
	cli
	hlt
	jmp .hang

; boot_magic/boot_info seen through the higher-half mapping.
boot_magic_hi equ boot_magic + KERNEL_VMA
boot_info_hi  equ boot_info + KERNEL_VMA

; The boot thread's stack (it becomes the idle thread).
section .bss nobits alloc noexec write align=16
global boot_stack, boot_stack_top
boot_stack:     resb 16384
boot_stack_top:
