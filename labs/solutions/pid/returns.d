/* Task 2: request_serve's return values (arg1 at a return probe). */
pid$target::request_serve:return
{
	@[(long)arg1] = count();
}
