; ap_blob.asm - the AP start-up code (ap_tramp.asm, assembled flat into
; build/ap_tramp.bin) as bytes in .rodata, for smp.c to copy to 0x8000.
;
; Tests: self-tests smp_* on 4 CPUs; tests/e2e/test_smp.py
section .rodata
global ap_tramp_start, ap_tramp_end
ap_tramp_start:
	incbin "ap_tramp.bin"
ap_tramp_end:
