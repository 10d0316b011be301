; ap_tramp.asm - where an application processor starts (assembled flat,
; copied to physical 0x8000 before the start-up IPI).
;
; A started AP is in 16-bit real mode at 0x8000 with paging off.  It loads
; a tiny GDT, enters protected mode, turns on PAE and long mode with the
; kernel's own page tables (CR3 from the parameter block; the kernel maps
; the first 2 MiB at address 0 while APs start), enters 64-bit mode, loads
; its stack and jumps to ap_main(cpu) in the higher half.  The parameter
; block at 0x8f00 is filled by smp.c for each AP in turn.
;
; Tests: self-tests smp_* on 4 CPUs; tests/e2e/test_smp.py

bits 16
org 0x8000

ap_start:
	cli
	cld
	xor ax, ax
	mov ds, ax
	lgdt [gdt_ptr]
	mov eax, cr0
	or eax, 1
	mov cr0, eax
	jmp 0x08:pm32

bits 32
pm32:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov eax, cr4
	or eax, 1 << 5                  ; PAE
	mov cr4, eax
	mov eax, [param_cr3]
	mov cr3, eax
	mov ecx, 0xc0000080             ; EFER: LME, NXE
	rdmsr
	or eax, (1 << 8) | (1 << 11)
	wrmsr
	mov eax, cr0
	or eax, (1 << 31) | (1 << 16)   ; PG, WP
	mov cr0, eax
	jmp 0x18:lm64

bits 64
lm64:
	mov ax, 0x10
	mov ds, ax
	mov es, ax
	mov ss, ax
	mov rsp, [param_stack]
	mov rdi, [param_cpu]
	mov rax, [param_entry]
	xor ebp, ebp
	push rbp                        ; a zero return address ends backtraces
	jmp rax

align 8
gdt:
	dq 0
	dq 0x00cf9a000000ffff           ; 0x08: 32-bit code
	dq 0x00cf92000000ffff           ; 0x10: data
	dq 0x00af9a000000ffff           ; 0x18: 64-bit code
gdt_ptr:
	dw gdt_ptr - gdt - 1
	dd gdt

times 0xf00 - ($ - $$) db 0
param_cr3:   dq 0                   ; 0x8f00
param_stack: dq 0                   ; 0x8f08
param_entry: dq 0                   ; 0x8f10
param_cpu:   dq 0                   ; 0x8f18
