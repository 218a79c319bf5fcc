// OpenSSL's TLS client (libssl, Debian's libssl-dev) for TacitKit's Linux cellular transport.
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
