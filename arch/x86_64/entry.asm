; entry.asm - one entry path for every interrupt and exception.
;
; Each of the 256 vectors has a tiny stub that pushes a zero error code (when
; the CPU does not push one) and the vector number, then jumps to trap_common,
; which saves the general registers in the order of struct trapframe
; (arch/x86_64/x86.h), calls trap_dispatch(frame) and returns with iretq.
; Ring 0 only: no swapgs is needed.

extern trap_dispatch

section .text
%macro STUB 1
trap_stub_%1:
%if %1 = 8 || (%1 >= 10 && %1 <= 14) || %1 = 17 || %1 = 21 || %1 = 29 || %1 = 30
%else
	push 0
%endif
	push %1
	jmp trap_common
%endmacro

%assign i 0
%rep 256
	align 16
	STUB i
%assign i i + 1
%endrep

trap_common:
	push r9                         ; the argument registers, rdi lowest
	push r8
	push rcx
	push rdx
	push rsi
	push rdi
	push rax
	push rbx
	push rbp
	push r10
	push r11
	push r12
	push r13
	push r14
	push r15
	cld
	mov rdi, rsp
	; Make the saved frame look like a call frame so backtraces walk through
	; traps: rbp points at (saved rbp, interrupted rip) pairs.
	push qword [rsp + 17 * 8]       ; interrupted rip
	push rbp
	mov rbp, rsp
	call trap_dispatch
	add rsp, 16
	pop r15
	pop r14
	pop r13
	pop r12
	pop r11
	pop r10
	pop rbp
	pop rbx
	pop rax
	pop rdi
	pop rsi
	pop rdx
	pop rcx
	pop r8
	pop r9
	add rsp, 16
	iretq

section .rodata
global trap_vectors
align 8
trap_vectors:
%assign i 0
%rep 256
	dq trap_stub_%+i
%assign i i + 1
%endrep

; int arch_safe_read(void *dst, const void *src, size_t len)
;
; Copies len bytes from src, returning 0, or -1 if a load faulted.  The load
; is listed in the exception table, so a page fault or general protection
; fault there resumes at .fault instead of stopping the kernel.  This is how
; probe-context code reads memory it cannot vouch for.
section .text
global arch_safe_read
arch_safe_read:
	xor eax, eax
.next:
	test rdx, rdx
	jz .done
.load:
	mov cl, [rsi]
	mov [rdi], cl
	inc rsi
	inc rdi
	dec rdx
	jmp .next
.done:
	ret
.fault:
	mov rax, -1
	ret

section extable progbits alloc noexec nowrite align=8
	dq arch_safe_read.load, arch_safe_read.fault
