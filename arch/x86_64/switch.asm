; switch.asm - switch kernel stacks between threads.
;
; arch_switch(&old->t_rsp, new->t_rsp) pushes the callee-saved registers on
; the old stack, saves rsp, loads the new thread's rsp and pops its
; registers; the final ret resumes the new thread where it last called
; arch_switch, or at thread_trampoline for a new thread (thread.c builds
; that first frame).
;
; Tests: self-tests thread_join_status, thread_kill_wakes_sleeper,
;        smp_threads_spread; tests/e2e/test_workloads.py

extern thread_start

section .text
global arch_switch
arch_switch:
	push rbp
	push rbx
	push r12
	push r13
	push r14
	push r15
	mov [rdi], rsp
	mov rsp, rsi
	pop r15
	pop r14
	pop r13
	pop r12
	pop rbx
	pop rbp
	ret

; A new thread's first frame returns here; r12 holds the thread pointer.
global thread_trampoline
thread_trampoline:
	xor ebp, ebp
	mov rdi, r12
	call thread_start
	ud2
