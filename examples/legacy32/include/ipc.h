/* An IPC message whose fixed sizes assume 32-bit long and pointers. */
#ifndef LEGACY32_IPC_H
#define LEGACY32_IPC_H

#define IPC_MSG_SIZE     32   /* sizeof(struct ipc_msg) on ILP32 */
#define IPC_HDR_SIZE     12
#define IPC_MAX_PAYLOAD  (IPC_MSG_SIZE - IPC_HDR_SIZE)

struct ipc_msg {
    long          type;
    unsigned long len;
    void         *reply_to;
    char          data[IPC_MAX_PAYLOAD];
};

struct ipc_ring {
    unsigned int   head;
    unsigned int   tail;
    struct ipc_msg slots[4];
};

#endif
