; entry.asm - one entry path for every interrupt and exception.
;
; Each of the 256 vectors has a tiny stub that pushes a zero error code (when
; the CPU does not push one) and the vector number, then jumps to trap_common,
; which saves the general registers in the order of struct trapframe
; (arch/x86_64/x86.h), calls trap_dispatch(frame) and returns with iretq.
; A trap from user mode (the saved cs has RPL 3) swaps GS base to the
; kernel's per-CPU pointer on the way in and back on the way out; the CPU
; has already switched to the thread's kernel stack (TSS rsp0).
;
; syscall_entry is where the SYSCALL instruction lands (MSR_LSTAR): it
; switches to the kernel stack, builds the same frame (vector
; VEC_SYSCALL), calls arch_syscall(frame) with interrupts on, and returns
; with SYSRET.  user_iret starts user mode with IRETQ.
;
; Tests: self-tests safe_read_survives_faults; tests/e2e/test_crash.py,
;        tests/e2e/test_proc.py

extern trap_dispatch

section .text

; The general registers in the order of struct trapframe (x86.h): the
; argument registers, rdi lowest, then the rest, r15 at the lowest address.
%macro SAVE_GPRS 0
	push r9
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
%endmacro

%macro RESTORE_GPRS 0
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
%endmacro

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
	test qword [rsp + 24], 3        ; the interrupted cs: from user mode?
	jz .from_kernel
	swapgs
.from_kernel:
	SAVE_GPRS
	cld
	mov rdi, rsp
	; Make the saved frame look like a call frame so backtraces walk through
	; traps: rbp points at (saved rbp, interrupted rip) pairs.  From user
	; mode the pair is (0, 0): a kernel stack ends at the trap, with no
	; user address in it (stack() of a probe in an interrupt of user code).
	mov rax, [rsp + 17 * 8]         ; interrupted rip (rax, rcx, rdx are saved: free)
	mov rcx, rbp
	xor edx, edx
	test qword [rdi + 18 * 8], 3    ; the interrupted cs
	cmovnz rax, rdx
	cmovnz rcx, rdx
	push rax
	push rcx
	mov rbp, rsp
	call trap_dispatch
	add rsp, 16
	RESTORE_GPRS
	add rsp, 16
	test qword [rsp + 8], 3         ; back to user mode?
	jz .to_kernel
	swapgs
.to_kernel:
	iretq

; SYSCALL: rcx = user rip, r11 = user rflags, interrupts off (MSR_FMASK),
; still on the user stack with the user's GS base.
extern arch_syscall
global syscall_entry
syscall_entry:
	swapgs
	mov [gs:16], rsp                ; cpu_user_sp
	mov rsp, [gs:8]                 ; cpu_kstack_top
	push 0x1b                       ; ss (GDT_UDATA)
	push qword [gs:16]              ; rsp
	push r11                        ; rflags
	push 0x23                       ; cs (GDT_UCODE)
	push rcx                        ; rip
	push 0                          ; error code
	push 256                        ; vector: VEC_SYSCALL
	SAVE_GPRS
	cld
	mov rdi, rsp
	push 0                          ; a call frame for backtraces that ends here: a
	push 0                          ; system call's kernel stack has no user PC in it
	mov rbp, rsp
	sti
	call arch_syscall
	cli
	add rsp, 16
	RESTORE_GPRS
	add rsp, 16                     ; vector, error code
	pop rcx                         ; rip (a user address: arch_syscall checked it)
	add rsp, 8                      ; cs
	pop r11                         ; rflags
	pop rsp                         ; the user stack; interrupts stay off until sysret
	swapgs
	o64 sysret

; void user_frame_return(struct trapframe *tf): back to user mode with the
; registers of tf (a frame at the top of this thread's kernel stack).
global user_frame_return
user_frame_return:
	mov rsp, rdi
	RESTORE_GPRS
	add rsp, 16
	swapgs
	iretq

; void user_iret(uint64_t pc, uint64_t sp): iretq to user mode, all registers zero.
global user_iret
user_iret:
	cli
	push 0x1b                       ; ss
	push rsi                        ; rsp
	push 0x202                      ; rflags: IF
	push 0x23                       ; cs
	push rdi                        ; rip
	xor eax, eax
	xor ebx, ebx
	xor ecx, ecx
	xor edx, edx
	xor esi, esi
	xor edi, edi
	xor ebp, ebp
	xor r8d, r8d
	xor r9d, r9d
	xor r10d, r10d
	xor r11d, r11d
	xor r12d, r12d
	xor r13d, r13d
	xor r14d, r14d
	xor r15d, r15d
	swapgs
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

; int user_copy(void *dst, const void *src, size_t len)
; long user_strcpy(char *dst, const char *src, size_t max)
;
; The kernel's only accesses to user memory (vm_user.c checks the range
; first).  Each load and store is in the exception table: a fault (an
; unmapped page, a write to a read-only one) returns -1 instead of
; stopping the kernel.  user_strcpy returns the length without the NUL,
; -1 on a fault, -2 if no NUL came within max bytes.
section .text
global user_copy
user_copy:
	xor eax, eax
.next:
	test rdx, rdx
	jz .done
.load:
	mov cl, [rsi]
.store:
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

global user_strcpy
user_strcpy:
	xor eax, eax
.next:
	cmp rax, rdx
	jae .long
.load:
	mov cl, [rsi + rax]
	mov [rdi + rax], cl
	test cl, cl
	jz .done
	inc rax
	jmp .next
.done:
	ret
.long:
	mov rax, -2
	ret
.fault:
	mov rax, -1
	ret

section extable progbits alloc noexec nowrite align=8
	dq user_copy.load, user_copy.fault
	dq user_copy.store, user_copy.fault
	dq user_strcpy.load, user_strcpy.fault
