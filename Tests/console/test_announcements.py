"""The polite live region says what a sighted person sees change, in order, as the
flow runs; the tracker reads as one sentence; and the page has no second live
region competing with it for the same news. (The next channel and a failure are
heard in test_audit_live, whose flow reaches them anyway.)"""
from audit import announcements, wait_announced
from test_live_flow import LIVE_WAIT, code_from_phone, sign_in, type_code, wait_status


def test_the_live_region_is_one_polite_log(live):
    region = live.find("#announcer")
    assert region.get_attribute("aria-live") == "polite"
    assert region.get_attribute("role") == "log"
    # The status line and the code box's error are read through the region, not live themselves.
    live_ones = live.driver.execute_script("""
        return Array.from(document.querySelectorAll('[aria-live], [role=status], [role=log]'))
          .filter((el) => !el.closest('#virtual-phone')).map((el) => el.id);""")
    assert live_ones == ["announcer"]


def test_an_sms_fallback_is_announced_step_by_step(live):
    sign_in(live, "+99012345685", dev_mode=True)
    said = wait_announced(live, "SMS started.")
    assert said[:3] == ["Silent auth started: the phone is checking with the mobile network.",
                        "Silent auth rejected.", "SMS started."]
    wait_announced(live, "A code was sent by SMS.")
    assert live.driver.execute_script("return document.getElementById('tracker-text').textContent") == (
        "Channels, in order: Silent auth, rejected; SMS, in progress, the current step; Voice, not used.")

    code = code_from_phone(live)
    type_code(live, "dev", code[:-1] + str((int(code[-1]) + 1) % 10))
    said = wait_announced(live, "attempts left.")
    assert said[-1] == "Code not accepted. The code does not match. 4 attempts left."

    type_code(live, "dev", code)
    wait_status(live, "#dev-screen", "completed")
    said = wait_announced(live, "Verified by SMS.")
    assert said[-1] == "Verified by SMS."
    assert len(said) == len(set(said)), f"something was said twice: {said}"


def test_the_plain_flow_announces_through_the_same_region(live):
    sign_in(live, "+99012345690", dev_mode=False)
    live.wait(lambda d: live.find("#plain-screen").get_attribute("data-view") == "done", seconds=LIVE_WAIT)
    said = wait_announced(live, "Verified")
    assert said == ["Silent auth started: the phone is checking with the mobile network.", "Verified by Silent auth."]
    assert announcements(live) == said


def test_a_state_read_older_than_the_events_moves_nothing_back(page, console_url):
    """A state read sent before some events can answer after them (a loaded machine did it):
    applied as it was, it took a step back to active and the region said the step again."""
    page.open(console_url + "/")
    seen = page.driver.execute_script("""
        const model = new Tacit.WorkflowModel([{channel: 'silent_auth', status: 'active'},
                                               {channel: 'sms', status: 'unused'}], 'pending');
        const announcer = new Tacit.Announcer(document.createElement('div'));
        announcer.follow(model);
        model.applyEvent({seq: 3, label: 'silent_auth:rejected', channel: 'silent_auth'});
        model.applyEvent({seq: 4, label: 'sms:started', channel: 'sms'});
        announcer.follow(model);
        const stale = {workflow: [{channel: 'silent_auth', status: 'active'}, {channel: 'sms', status: 'unused'}],
                       status: 'pending'};
        model.applyState(stale);
        announcer.follow(model);
        const after = model.steps.map((s) => s.status);
        model.applyState({workflow: [{channel: 'silent_auth', status: 'rejected'}, {channel: 'sms', status: 'active'},
                                     {channel: 'voice', status: 'unused'}], status: 'pending'});
        model.applyEvent({seq: 9, label: 'verification:completed', channel: 'verification'});
        model.applyState({workflow: stale.workflow, status: 'pending'});
        return [after, model.steps.map((s) => s.status), model.status,
                Array.from(announcer.root.children, (p) => p.textContent)];""")
    assert seen == [["rejected", "active"], ["rejected", "active", "unused"], "completed",
                    ["Silent auth started: the phone is checking with the mobile network.",
                     "Silent auth rejected.", "SMS started."]]
