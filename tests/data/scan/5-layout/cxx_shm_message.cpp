// Proprietary C++ middleware: messages are copied into a shared ring with
// memcpy(slot, &msg, sizeof msg), so the class layout, hidden vtable pointer
// included, is the interface with the 32-bit readers.
#include <cstdint>
#include <cstdio>
#include <cstring>

struct Message {
    virtual ~Message() {}
    std::uint16_t id;
};

struct SpeedMsg : Message {
    long sec;
    float kmh;
};

struct PlainMsg {
    std::uint16_t id;
    std::uint16_t flags;
    std::int32_t value;
};

int main()
{
    unsigned char ring[256] = {0};
    SpeedMsg m;
    PlainMsg p = {1, 2, 3};
    float kmh = 0;

    m.id = 7;
    m.sec = 5;
    m.kmh = 88.5f;
    std::memcpy(ring, &m, sizeof m); // want: PK501
    std::memcpy(ring + 128, &p, sizeof p); // ok: PK501
    std::memcpy(&kmh, ring + 12, sizeof kmh);
    std::printf("a 32-bit reader finds kmh %.1f\n", kmh);
    std::printf("plain message value %d\n", static_cast<int>(reinterpret_cast<PlainMsg *>(ring + 128)->value));
    return 0;
}
