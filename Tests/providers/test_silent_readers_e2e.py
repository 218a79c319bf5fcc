"""One `tacit serve --dev` with CAMARA configured: the virtual operator answers the `+990`
numbers and CAMARA every other, and each check's verdict is read by the reader of the
provider that began it (the virtual operator's signed answer, CAMARA's authorization code),
never by the other's."""
import json

import pytest

from camara_support import CELLULAR, Device
from conftest import Tacit


@pytest.fixture(scope="module")
def dev_camara(binary, fake, camara_fake):
    server = Tacit(binary, fake.url, camara_fake.env(), serve_args=("--dev",))
    camara_fake.control("register", {"redirect_uri": server.url + "/v1/silent/callback"})
    yield server
    server.stop()


def complete(tacit, number):
    status, started, _ = tacit.call("POST", "/v1/verifications", {"phone_number": number, "brand": "Acme",
                                                                   "workflow": [{"channel": "silent_auth"}, {"channel": "sms"}]})
    assert status == 202 and "check_url" in started, started
    hops, _ = Device(CELLULAR).follow(started["check_url"])
    answer = json.loads(hops[-1][3])
    assert answer["request_id"] == started["request_id"], answer
    status, body, _ = tacit.call("POST", f"/v1/verifications/{started['request_id']}/check", {"code": answer["code"]})
    assert (status, body["status"]) == (200, "completed"), body
    return [e for e in tacit.events(started["request_id"]) if e["label"] == "silent_auth:provider_verdict"]


def test_the_virtual_operator_and_camara_each_have_their_verdicts_read_in_one_server(dev_camara, camara_fake):
    virtual = complete(dev_camara, "+99012345670")
    assert not camara_fake.requests("/token"), "the virtual operator's answer went to CAMARA's reader"
    camara = complete(dev_camara, "+447400123480")
    assert [r["path"] for r in camara_fake.requests() if r["path"] != "/authorize"] == ["/token", "/api/number-verification/v2/verify"]
    assert [e["data"]["provider"] for e in virtual] == ["virtual_operator"]
    assert [e["data"]["provider"] for e in camara] == ["camara"]
