#ifndef CPHONENUMBER_H
#define CPHONENUMBER_H
#ifdef __cplusplus
extern "C" {
#endif

/// Outcomes of cphone_parse.
enum {
    CPHONE_OK = 0,                    // a valid number; see `type` for what kind
    CPHONE_INVALID = 1,               // parsed, but not a valid number for its region
    CPHONE_NOT_A_NUMBER = 2,          // not something that looks like a phone number
    CPHONE_INVALID_COUNTRY_CODE = 3,  // unknown country code, or national format without a region
    CPHONE_TOO_SHORT = 4,             // too few digits for its region
    CPHONE_TOO_LONG = 5,              // too many digits for its region
};

/// Parse result. Strings are NUL-terminated.
typedef struct {
    int type;                 // libphonenumber's PhoneNumberType as an int (0 = FIXED_LINE ... 11 = UNKNOWN)
    int country_code;         // the country calling code, e.g. 44
    char e164[24];            // "+447911123456"
    char region[8];           // "GB", or "001" for non-geographic entities, "ZZ" when unknown
} cphone_result;

/// Parses `text` (E.164, or national format when `default_region` such as "GB" is
/// given; NULL means none) and fills `out` on CPHONE_OK. Returns one of CPHONE_*.
int cphone_parse(const char *text, const char *default_region, cphone_result *out);

#ifdef __cplusplus
}
#endif
#endif
