"""The sign-in page on its own: labels, the Dev Mode switch, and the virtual phone
that appears beside the form for the virtual operator's +990 numbers."""


def test_virtual_phone_appears_only_for_990_numbers(page, console_url):
    page.open(console_url + "/")
    assert not any(p.is_displayed() for p in page.find_all("#virtual-phone"))
    page.find("#phone").send_keys("+99012345671")
    phone = page.find("#signin-phone-slot #virtual-phone")
    assert phone.is_displayed()
    assert phone.find_element("css selector", ".phone-number").text == "+99•••••5671"
    assert page.find("#phone-net-cellular").is_selected()
    assert not page.find("#phone-run").is_enabled()
    page.find('label[for="devmode"]').click()
    page.screenshot("signin")
    page.find("#phone").clear()
    page.find("#phone").send_keys("+447700900123")
    assert not phone.is_displayed()


def test_every_control_has_a_label_and_buttons_are_buttons(page, console_url):
    page.open(console_url + "/")
    page.find("#phone").send_keys("+99012345670")
    duplicates = page.driver.execute_script("""
        const ids = Array.from(document.querySelectorAll('[id]'), (el) => el.id);
        return ids.filter((id, i) => ids.indexOf(id) !== i);""")
    assert duplicates == []
    unlabelled = page.driver.execute_script("""
        return Array.from(document.querySelectorAll('input, select'))
          .filter((el) => !(el.id && document.querySelector('label[for="' + el.id + '"]')) && !el.getAttribute('aria-label'))
          .map((el) => el.id || el.name);""")
    assert unlabelled == []
    clickable = page.driver.execute_script(
        "return document.querySelectorAll('[onclick], a:not([href]), div[role=button], span[role=button]').length")
    assert clickable == 0


def test_dev_mode_is_a_switch_that_starts_off(page, console_url):
    page.open(console_url + "/")
    toggle = page.find("#devmode")
    assert toggle.get_attribute("role") == "switch"
    assert not toggle.is_selected()
    page.find('label[for="devmode"]').click()
    assert toggle.is_selected()
