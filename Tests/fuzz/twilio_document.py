"""Prints the Twilio face's OpenAPI document with one application's service sid as the only
value of `ServiceSid`, so the fuzz reaches the routes behind the credential instead of only
their 404s. Usage: twilio_document.py URL SERVICE_SID > doc.json"""
import json
import sys
import urllib.request

url, service_sid = sys.argv[1], sys.argv[2]
with urllib.request.urlopen(url + "/v2/twilio/openapi.json", timeout=10) as reply:
    document = json.load(reply)
for path in document["paths"].values():
    for operation in path.values():
        for parameter in operation.get("parameters", []):
            if parameter["name"] == "ServiceSid":
                parameter["schema"] = {"type": "string", "enum": [service_sid]}
json.dump(document, sys.stdout)
