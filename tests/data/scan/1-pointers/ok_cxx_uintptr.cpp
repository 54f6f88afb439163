// The buffer registry ported to C++: handles are std::uintptr_t and the casts
// say what they do.
#include <cstdint>
#include <cstdio>
#include <map>

class BufferRegistry {
public:
    std::uintptr_t add(char *buf, int len)
    {
        std::uintptr_t handle = reinterpret_cast<std::uintptr_t>(buf); // ok: PK101
        lengths_[handle] = len;
        return handle;
    }

    char *get(std::uintptr_t handle) const
    {
        return lengths_.count(handle) ? reinterpret_cast<char *>(handle) : nullptr; // ok: PK102
    }

private:
    std::map<std::uintptr_t, int> lengths_;
};

int main()
{
    char frame[32];
    BufferRegistry registry;
    std::uintptr_t h = registry.add(frame, 32);

    std::printf("lookup finds the frame: %d\n", registry.get(h) == frame);
    std::printf("unknown handle: %d\n", registry.get(h + 1) == nullptr);
    return 0;
}
