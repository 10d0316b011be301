/* Pins the DIF for: stack() keys are recorded by the framework (no DIFO), func()/mod() keys are pcs. */
profile-997
{
	@[stack()] = count();
	@s[func(caller), probefunc] = count();
	@k[stack(5), mod(arg0)] = sum(1);
}
