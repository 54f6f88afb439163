/* Register access from a board support package for a 32-bit SoC: addresses
 * are kept in ADDR_T, which the BSP defined as int. Here the "peripheral" is
 * an array on the stack, so the example runs anywhere. The cast inside
 * REG_ADDR is reported once, at the #define, for all its uses. */
#include <stdio.h>
#include <stdint.h>

#define ADDR_T int
#define REG_ADDR(base, off) ((volatile uint32_t *)((base) + (off))) /* want: PK102 */

#define UART_DR 0x00
#define UART_FR 0x18

static volatile uint32_t *uart_reg(ADDR_T base, int off)
{
    return (volatile uint32_t *)(base + off); /* want: PK102 */
}

int main(void)
{
    uint32_t regs[16] = {0};
    ADDR_T base = (ADDR_T)regs; /* want: PK101 */
    volatile uint32_t *dr = REG_ADDR(base, UART_DR);
    volatile uint32_t *fr = uart_reg(base, UART_FR);

    printf("DR is regs[0]: %d\n", dr == &regs[0]);
    printf("FR is regs[6]: %d\n", fr == &regs[6]);
    return 0;
}
