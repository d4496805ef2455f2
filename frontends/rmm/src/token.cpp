#include "token.hpp"

namespace tsoreach::rmm {

std::string quote(const std::string& s) {
    return "'" + s + "'";
}

std::string describe(const Tok& t) {
    switch (t.kind) {
    case Tk::End:
        return "end of file";
    case Tk::Nat:
        return "number " + quote(t.text);
    case Tk::Reg:
        return "register " + quote(t.text);
    default:
        return quote(t.text);
    }
}

} // namespace tsoreach::rmm
