#ifndef CPHONENUMBER_H
#define CPHONENUMBER_H
#ifdef __cplusplus
extern "C" {
#endif

/// Result kinds of cphone_parse.
enum {
    CPHONE_OK = 0,
    CPHONE_INVALID = 1,       // not a number at all, or not a valid number for its region
    CPHONE_NOT_MOBILE = 2,    // valid, but a number type that can't receive a code (fixed line only, premium rate, ...)
};

/// Parses `text` (E.164, or national with `default_region` such as "GB"), writing the
/// E.164 form into `out` (NUL-terminated) and the number type (libphonenumber's
/// PhoneNumberType as an int) into `type_out`. Returns one of the CPHONE_* kinds.
int cphone_parse(const char *text, const char *default_region, char *out, int out_len, int *type_out);

/// The region code ("GB") of an E.164 number into `out`; 0 on success.
int cphone_region(const char *e164, char *out, int out_len);

#ifdef __cplusplus
}
#endif
#endif
