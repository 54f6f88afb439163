/* Memory-mapped 32-bit device registers read and written through
 * volatile unsigned long pointers, as pciutils' mmio-ports.c did: a 4-byte
 * bus access on ILP32, an 8-byte one on LP64 that also touches the next
 * register. The "device" is a block of 32-bit registers in memory. */
#include <stdio.h>
#include <stdint.h>

static uint32_t device[4] = {0x11111111, 0x22222222, 0x33333333, 0x44444444};

static void writel(unsigned long value, volatile void *addr)
{
    *(volatile unsigned long *)addr = value; /* want: PK103 */
}

static unsigned long readl(volatile void *addr)
{
    return *(volatile unsigned long *)addr; /* want: PK103 */
}

static void writel_at(uintptr_t base, unsigned offset, unsigned long value)
{
    *(volatile unsigned long *)(base + offset) = value; /* want: PK103 */
}

static unsigned long read_at(volatile uint8_t *window, unsigned offset)
{
    return *(volatile unsigned long *)(window + offset); /* want: PK103 */
}

static uint32_t readl_fixed(volatile void *addr)
{
    return *(volatile uint32_t *)addr; /* ok: PK103 */
}

int main(void)
{
    writel(0xA, &device[0]);
    printf("reg1 after writing reg0: 0x%x\n", (unsigned)device[1]);
    printf("reg2 read: 0x%lx\n", readl(&device[2]));
    writel_at((uintptr_t)device, 8, 0xB);
    printf("reg3 after writing reg2: 0x%x\n", (unsigned)device[3]);
    printf("reg0 read, fixed: 0x%x\n", (unsigned)readl_fixed(&device[0]));
    printf("reg1 read through the byte window: 0x%lx\n", read_at((volatile uint8_t *)device, 4));
    return 0;
}
