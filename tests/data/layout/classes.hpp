// Layout truth corpus, C++: bases (private, multiple, virtual, diamond),
// vtable pointers, empty bases, tail-padding reuse, [[no_unique_address]].
// Members are public so the g++ probe can take offsetof; bases need not be.
#include <cstddef>

struct Empty {};
struct Empty2 {};
struct Poly { int b; virtual ~Poly(); };
struct Derived : Poly { long d; char c; };
struct PlainDerived : Empty { char c; long l; };
struct Nua { [[no_unique_address]] Empty e; long l; char c; };
struct Nua2 { [[no_unique_address]] Empty a; [[no_unique_address]] Empty2 b; int i; };
class Multi : public PlainDerived, public Poly { public: short s; };
struct VirtOnly { virtual void f(); char c; };
struct WithBits { virtual void g(); unsigned a : 3; unsigned b : 9; long long ll; };
namespace ns { struct Inner { double d; char c; void *p; }; }
struct UsesNs { ns::Inner in; bool flag; };
struct FromNs : ns::Inner { int z; };

// A non-virtual polymorphic base that is not first: it becomes the primary base at offset 0.
struct Plain { char a; };
struct PolyData { long x; virtual void f(); };
struct PrimaryLater : Plain, PolyData { char d; };
class PrivateBases : Plain, PolyData { public: char p; };

// Tail padding of a non-POD base is reused by the derived class.
struct NonPod { virtual ~NonPod(); int x; char c; };
struct Reuse : NonPod { char d; };

// Virtual inheritance: a diamond, and an indirect virtual base.
struct Top { int t; };
struct Left : virtual Top { int l; };
struct Right : virtual Top { int r; };
struct Diamond : Left, Right { long d; };
struct Abstract { virtual void g() = 0; int x; };
struct Deep : Left, Abstract { char w; void g() override; };
