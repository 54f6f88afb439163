#include <stdio.h>

int main(void)
{
    puts("planted");
    return 0;
}
