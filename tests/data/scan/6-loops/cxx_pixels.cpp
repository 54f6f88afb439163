// A C++ image pipeline that kept the 32-bit driver's int dimensions: a
// 46341 x 46341 mosaic has just more pixels than an int holds.
#include <cstddef>
#include <cstdio>
#include <vector>

int main()
{
    int width = 46341, height = 46341;
    std::size_t pixels = width * height; // want: PK602
    std::size_t pixels_fixed = static_cast<std::size_t>(width) * height; // ok: PK602
    std::vector<int> histogram(16, 1);
    int sum = 0;

    for (int i = 0; i < histogram.size(); ++i) // want: PK601
        sum += histogram[i];
    for (std::size_t i = 0; i < histogram.size(); ++i) // ok: PK601
        sum += histogram[i];
    std::printf("pixel count is right: %d\n", pixels == pixels_fixed);
    std::printf("histogram sum %d\n", sum);
    return 0;
}
