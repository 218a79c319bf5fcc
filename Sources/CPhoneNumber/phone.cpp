#include "CPhoneNumber.h"
#include <phonenumbers/phonenumberutil.h>
#include <cstring>
#include <string>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static void copy_out(const std::string &s, char *out, int out_len) {
    if (out_len <= 0) return;
    std::strncpy(out, s.c_str(), out_len - 1);
    out[out_len - 1] = '\0';
}

extern "C" int cphone_parse(const char *text, const char *default_region, char *out, int out_len, int *type_out) {
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    std::string region = default_region ? default_region : "ZZ";
    if (util->Parse(text, region, &number) != PhoneNumberUtil::NO_PARSING_ERROR) return CPHONE_INVALID;
    if (!util->IsValidNumber(number)) return CPHONE_INVALID;
    std::string formatted;
    util->Format(number, PhoneNumberUtil::E164, &formatted);
    copy_out(formatted, out, out_len);
    PhoneNumberUtil::PhoneNumberType type = util->GetNumberType(number);
    if (type_out) *type_out = (int)type;
    switch (type) {
        case PhoneNumberUtil::MOBILE:
        case PhoneNumberUtil::FIXED_LINE_OR_MOBILE:
        case PhoneNumberUtil::UNKNOWN:
            return CPHONE_OK;
        default:
            return CPHONE_NOT_MOBILE;
    }
}

extern "C" int cphone_region(const char *e164, char *out, int out_len) {
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    if (util->Parse(e164, "ZZ", &number) != PhoneNumberUtil::NO_PARSING_ERROR) return 1;
    std::string region;
    util->GetRegionCodeForNumber(number, &region);
    copy_out(region, out, out_len);
    return 0;
}
