"""Twilio WhatsApp with a Content template (TACIT_TWILIO_WHATSAPP_CONTENT_SID): Tacit's request
is compared with the one Twilio's SDK (twilio 9.13.0) sends for `content_sid` and
`content_variables`, as test_twilio_sdk.py compares the others."""
import json

import pytest

from conftest import Tacit
from test_twilio_sdk import UK, sdk, shape, tacit_request

CONTENT_SID = "HX" + "3c" * 16


@pytest.fixture(scope="module")
def templated(binary, fake):
    server = Tacit(binary, fake.url, {"TACIT_TWILIO_WHATSAPP_CONTENT_SID": CONTENT_SID})
    yield server
    server.stop()


def test_tacit_sends_a_whatsapp_content_template_as_the_sdk_does(templated, fake):
    ours = tacit_request(templated, fake, UK, "whatsapp")
    form = ours["form"]
    assert "Body" not in form and form["ContentSid"] == CONTENT_SID
    code = json.loads(form["ContentVariables"])["1"]
    assert code.isdigit()
    fake.reset()
    sdk(fake).messages.create(to=form["To"], from_=form["From"], content_sid=CONTENT_SID,
                              content_variables=json.dumps({"1": code}), status_callback=form["StatusCallback"])
    theirs = fake.requests()[0]
    assert shape(ours) == shape(theirs)
    assert ours["form"] == theirs["form"]


def test_an_sms_still_goes_as_body_with_a_content_sid_set(templated, fake):
    form = tacit_request(templated, fake, UK, "sms")["form"]
    assert "Body" in form and "ContentSid" not in form
