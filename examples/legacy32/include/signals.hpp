// Proprietary C++ middleware from the 32-bit head unit: messages are copied
// into shared memory with memcpy(&msg, shm, sizeof msg), so their layout is
// an interface. The polymorphic base hides a vtable pointer in every message.
#include <stdint.h>

struct Message {
    virtual ~Message();
    uint16_t id;
    uint8_t flags;
};

struct Timestamped {
    long sec;   // 32-bit on AArch32
    long usec;
};

// The polymorphic base goes first, whatever the declaration order says.
struct SpeedSignal : Timestamped, Message {
    uint8_t seq;
    float kmh;
};

// `seq` lives in Message's tail padding (Message is not a POD), so
// sizeof(Heartbeat) == sizeof(Message) and copying a Message over it clobbers seq.
struct Heartbeat : Message {
    uint8_t seq;
};
