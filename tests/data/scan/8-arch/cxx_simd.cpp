// A C++ wrapper over NEON from the ARMv7 build of a navigation renderer (the
// Makefile gave -mfpu=neon; the pragma does the same here).
#if defined(__arm__) && !defined(__ARM_NEON)
#pragma GCC target("fpu=neon")
#endif
#include <arm_neon.h> // want: PK802
#include <cstddef>

class Vec4 {
public:
    explicit Vec4(const float *p) : v_(vld1q_f32(p)) {} // want: PK802
    Vec4 operator*(float s) const { return Vec4(vmulq_n_f32(v_, s)); } // want: PK802
    void store(float *p) const { vst1q_f32(p, v_); } // want: PK802

private:
    explicit Vec4(float32x4_t v) : v_(v) {}
    float32x4_t v_;
};

void scale_points(float *xyzw, std::size_t n, float s)
{
    for (std::size_t i = 0; i + 4 <= n; i += 4)
        (Vec4(xyzw + i) * s).store(xyzw + i);
}
