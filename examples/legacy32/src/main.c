/* legacy32: prints the sizes its #defines assume; run it on AArch32 and AArch64. */
#include <stdio.h>
#include "../include/long_records.h"
#include "../include/wire.h"
#include "../include/ipc.h"

int main(void)
{
    printf("sizeof ( struct bar ) = %d\n", (int) sizeof(struct bar));
    printf("sizeof (long_union_t ) = %d\n", (int) sizeof(long_union_t));
    printf("sizeof (struct ipc_msg) = %d, IPC_MSG_SIZE = %d\n", (int) sizeof(struct ipc_msg), IPC_MSG_SIZE);
    return 0;
}
