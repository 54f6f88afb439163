/* A reference counter and a spin flag written with the GCC and C11 atomics:
 * no assembly, nothing that belongs to one architecture; and a barrier whose
 * assembly is already written for the target (curl's easy_lock.h does this). */
#include <stdatomic.h>
#include <stdio.h>

struct buffer {
    int refs;
    atomic_int users;
    int asm_offset;
};

static void buffer_get(struct buffer *b)
{
    __atomic_fetch_add(&b->refs, 1, __ATOMIC_ACQ_REL); /* ok: PK801 PK802 */
    atomic_fetch_add_explicit(&b->users, 1, memory_order_relaxed); /* ok: PK802 */
}

static int buffer_put(struct buffer *b)
{
    __sync_synchronize(); /* ok: PK801 */
    return __atomic_sub_fetch(&b->refs, 1, __ATOMIC_ACQ_REL); /* ok: PK802 */
}

static void cpu_relax(void)
{
#if defined(__aarch64__)
    __asm__ volatile("yield" ::: "memory"); /* ok: PK801 */
#else
    __sync_synchronize(); /* ok: PK801 */
#endif
}

int main(void)
{
    struct buffer b = {1, 0, 0};

    buffer_get(&b);
    cpu_relax();
    buffer_get(&b);
    b.asm_offset = 4; /* ok: PK801 */
    printf("refs after two gets and a put: %d\n", buffer_put(&b));
    printf("users: %d, \"asm\" is just a word here: %d\n", atomic_load(&b.users), b.asm_offset);
    return 0;
}
