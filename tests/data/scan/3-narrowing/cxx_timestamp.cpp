// A C++ trip recorder that stores std::chrono time points as int seconds.
// The time points are fixed: 2020 and 2050.
#include <chrono>
#include <cstdio>
#include <ctime>

using Clock = std::chrono::system_clock;

struct TripRecord {
    int started;
    int distance_m;
};

static TripRecord make_record(Clock::time_point start, int distance_m)
{
    TripRecord r;
    std::time_t t = Clock::to_time_t(start); // ok: PK302

    r.started = t; // want: PK302
    r.distance_m = distance_m;
    return r;
}

int main()
{
    const long long starts[] = {1577836800LL, 2524608000LL};

    for (long long s : starts) {
        Clock::time_point tp{std::chrono::seconds(s)};
        TripRecord r = make_record(tp, 1200);

        std::printf("record keeps its start: %d\n", r.started == Clock::to_time_t(tp));
    }
    return 0;
}
