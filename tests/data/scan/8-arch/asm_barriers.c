/* Barrier, idle and cache helpers from an ARMv7 board support package. The
 * cp15 and CPSR ones exist only in the 32-bit build; dmb and wfi assemble
 * for both, but are still assembly to review. A compiler-only barrier and the
 * GCC atomics carry no instruction and need no porting. */
#include <stdint.h>

static inline void dmb(void)
{
    __asm__ __volatile__("dmb ish" ::: "memory"); /* want: PK801 */
}

static inline void cpu_idle(void)
{
    asm volatile("wfi"); /* want: PK801 */
}

#if defined(__arm__)
static inline void clean_dcache_line(void *addr)
{
    __asm__ __volatile__("mcr p15, 0, %0, c7, c10, 1" : : "r"(addr) : "memory"); /* want: PK801 */
}

static inline uint32_t irq_save(void)
{
    uint32_t flags;

    __asm__ __volatile__("mrs %0, cpsr" : "=r"(flags) : : "memory"); /* want: PK801 */
    return flags;
}
#endif

static inline void compiler_barrier(void)
{
    __asm__ __volatile__("" ::: "memory"); /* ok: PK801 */
}

static inline void full_barrier(void)
{
    __sync_synchronize(); /* ok: PK801 */
}

void publish(volatile uint32_t *flag, uint32_t *data, uint32_t v)
{
    *data = v;
    dmb();
    compiler_barrier();
    full_barrier();
    *flag = 1;
    cpu_idle();
}
