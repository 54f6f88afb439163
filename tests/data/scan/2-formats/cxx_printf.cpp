// A C++ diagnostics service that still logs with printf: container sizes and
// string positions are size_t, a drift reading is an int.
#include <cstdio>
#include <string>
#include <vector>

int main()
{
    std::vector<int> samples(5, 1);
    std::string name = "can0:500k";
    std::string::size_type colon = name.find(':');
    int drift = -2;

    std::printf("%u samples\n", samples.size()); // want: PK201
    std::printf("%zu samples\n", samples.size()); // ok: PK201
    std::printf("bitrate at %d\n", colon + 1); // want: PK201
    std::printf("bitrate at %zu\n", colon + 1); // ok: PK201
    std::printf("drift %ld ppm\n", drift); // want: PK201
    std::printf("drift %d ppm\n", drift); // ok: PK201
    return 0;
}
