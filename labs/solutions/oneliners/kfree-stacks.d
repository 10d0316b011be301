/* Task 5: the kernel stacks that free memory. */
fbt::kfree:entry
{
	@[stack()] = count();
}
