// Layout truth corpus, C++: bases, vtable pointers, [[no_unique_address]].
#include <cstddef>

struct Empty {};
struct Poly { int b; virtual ~Poly(); };
struct Derived : Poly { long d; char c; };
struct PlainDerived : Empty { char c; long l; };
struct Nua { [[no_unique_address]] Empty e; long l; char c; };
class Multi : public PlainDerived, public Poly { public: short s; };
struct VirtOnly { virtual void f(); char c; };
struct WithBits { virtual void g(); unsigned a : 3; unsigned b : 9; long long ll; };
namespace ns { struct Inner { double d; char c; void *p; }; }
struct UsesNs { ns::Inner in; bool flag; };
