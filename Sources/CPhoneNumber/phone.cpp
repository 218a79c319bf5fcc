#include "CPhoneNumber.h"
#include <phonenumbers/phonenumberutil.h>
#include <cstring>
#include <string>

using i18n::phonenumbers::PhoneNumber;
using i18n::phonenumbers::PhoneNumberUtil;

static void copy_out(const std::string &s, char *out, size_t out_len) {
    std::strncpy(out, s.c_str(), out_len - 1);
    out[out_len - 1] = '\0';
}

static int parse_error_kind(PhoneNumberUtil::ErrorType error) {
    switch (error) {
        case PhoneNumberUtil::INVALID_COUNTRY_CODE_ERROR: return CPHONE_INVALID_COUNTRY_CODE;
        case PhoneNumberUtil::TOO_SHORT_AFTER_IDD:
        case PhoneNumberUtil::TOO_SHORT_NSN: return CPHONE_TOO_SHORT;
        case PhoneNumberUtil::TOO_LONG_NSN: return CPHONE_TOO_LONG;
        default: return CPHONE_NOT_A_NUMBER;
    }
}

// Why a parsed number is invalid: its length when that is the reason, else plain invalid.
static int invalid_kind(const PhoneNumberUtil *util, const PhoneNumber &number) {
    switch (util->IsPossibleNumberWithReason(number)) {
        // A local-only number lacks its area code: too short to reach from anywhere.
        case PhoneNumberUtil::IS_POSSIBLE_LOCAL_ONLY:
        case PhoneNumberUtil::TOO_SHORT: return CPHONE_TOO_SHORT;
        case PhoneNumberUtil::TOO_LONG: return CPHONE_TOO_LONG;
        case PhoneNumberUtil::INVALID_COUNTRY_CODE: return CPHONE_INVALID_COUNTRY_CODE;
        default: return CPHONE_INVALID;
    }
}

extern "C" int cphone_parse(const char *text, const char *default_region, cphone_result *out) {
    if (text == nullptr || out == nullptr) return CPHONE_NOT_A_NUMBER;
    const PhoneNumberUtil *util = PhoneNumberUtil::GetInstance();
    PhoneNumber number;
    std::string region = default_region ? default_region : "ZZ";
    PhoneNumberUtil::ErrorType error = util->Parse(text, region, &number);
    if (error != PhoneNumberUtil::NO_PARSING_ERROR) return parse_error_kind(error);
    if (!util->IsValidNumber(number)) return invalid_kind(util, number);

    std::string formatted, number_region;
    util->Format(number, PhoneNumberUtil::E164, &formatted);
    util->GetRegionCodeForNumber(number, &number_region);
    copy_out(formatted, out->e164, sizeof out->e164);
    copy_out(number_region, out->region, sizeof out->region);
    out->country_code = number.country_code();
    out->type = (int)util->GetNumberType(number);
    return CPHONE_OK;
}
