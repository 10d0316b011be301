/* false - do nothing, unsuccessfully: exit status 1. */
int main(void)
{
	return 1;
}
