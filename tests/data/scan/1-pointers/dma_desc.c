/* Descriptors for a 32-bit SoC's DMA engine: the address fields are u32 because
 * the engine's registers are 32 bits wide. The "engine" here is software that
 * refuses an address no buffer lives at, as an IOMMU would. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct dma_desc {
    uint32_t src;
    uint32_t dst;
    uint32_t len;
    uint32_t next;
};

static void dma_setup(struct dma_desc *d, const void *src, void *dst, uint32_t len)
{
    d->src = (uint32_t)src; /* want: PK101 */
    d->dst = (uint32_t)dst; /* want: PK101 */
    d->len = len;
    d->next = 0;
}

static int dma_run(const struct dma_desc *d, const void *mapped_src, void *mapped_dst)
{
    const void *from = (const void *)d->src; /* want: PK102 */
    void *to = (void *)d->dst; /* want: PK102 */

    if (from != mapped_src || to != mapped_dst)
        return -1;
    memcpy(to, from, d->len);
    return 0;
}

int main(void)
{
    char src[16] = "sensor frame";
    char dst[16] = "";
    struct dma_desc d;
    int rc;

    dma_setup(&d, src, dst, (uint32_t)sizeof src);
    rc = dma_run(&d, src, dst);
    printf("dma rc %d, copied \"%s\"\n", rc, dst);
    return 0;
}
