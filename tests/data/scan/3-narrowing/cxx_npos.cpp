// "key=value" settings in a C++ service: the position of '=' was kept in an
// unsigned int and compared with std::string::npos, which is SIZE_MAX.
#include <cstdio>
#include <string>

static void parse(const std::string &line)
{
    unsigned int eq = line.find('='); // want: PK301

    if (eq == std::string::npos) {
        std::printf("'%s': a flag\n", line.c_str());
        return;
    }
    std::printf("'%s': key of %u chars\n", line.c_str(), eq);
}

static void parse_fixed(const std::string &line)
{
    std::string::size_type eq = line.find('='); // ok: PK301

    if (eq == std::string::npos) {
        std::printf("'%s': a flag\n", line.c_str());
        return;
    }
    std::printf("'%s': key of %zu chars\n", line.c_str(), eq);
}

int main()
{
    parse("volume=12");
    parse("mute");
    parse_fixed("volume=12");
    parse_fixed("mute");
    return 0;
}
