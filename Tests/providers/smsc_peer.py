"""A real SMSC for Tacit's SMPP tests: the `smpp34` package's asyncio server (PyPI
`smpp34` 1.5.0, a third party's SMPP 3.4 implementation, not a fake of ours), with a TCP
relay in front of it that Tacit connects to. The relay reads the ESME's side of the stream
as PDUs, so the tests see each bind's fields and each command, and it can cut the link:
at once, or just after relaying a submit_sm (the SMSC has it, the ESME never hears back).
Control routes under `/_fake/` on a second port, as the HTTP fakes have. Prints
`smpp 127.0.0.1:<port> control http://127.0.0.1:<port>` once both listen.

smpp34's pitfall: `server.next()` is awaited directly in one loop; wrapping it in
`asyncio.wait_for` loses events."""
import argparse
import asyncio
import socket
import struct
import threading
from http.server import ThreadingHTTPServer

import smpp34

from fake_http import FakeHandler, FakeState

GSM = ("@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\x1bÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?"
       "¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà")
GSM_ESCAPES = {0x0A: "\f", 0x14: "^", 0x28: "{", 0x29: "}", 0x2F: "\\", 0x3C: "[", 0x3D: "~", 0x3E: "]", 0x40: "|", 0x65: "€"}
MESSAGE_PAYLOAD = 0x0424
NAMES = {0x09: "bind_transceiver", 0x04: "submit_sm", 0x80000005: "deliver_sm_resp", 0x15: "enquire_link",
         0x80000015: "enquire_link_resp", 0x06: "unbind", 0x80000006: "unbind_resp", 0x80000000: "generic_nack"}


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def gsm_decode(octets):
    text, escaped = [], False
    for septet in octets:
        if escaped:
            text.append(GSM_ESCAPES.get(septet, "?"))
            escaped = False
        elif septet == 0x1B:
            escaped = True
        else:
            text.append(GSM[septet])
    return "".join(text)


def c_strings(body, count):
    values, offset = [], 0
    for _ in range(count):
        end = body.index(0, offset)
        values.append(body[offset:end].decode())
        offset = end + 1
    return values


class SMSC(FakeState):
    kept = {"submits": list, "commands": list, "plans": list}

    def __init__(self, loop):
        super().__init__()
        # Binds outlive `reset`: the session binds once, before any test begins.
        self.binds = []
        self.loop = loop
        self.esme = None
        self.links = set()
        self.counter = 0

    def plan(self):
        """The next submit's fate, spent once: None to accept, else {"reject": status} or {"drop": True}."""
        with self.lock:
            return self.plans.pop(0) if self.plans else None


class Link:
    """One ESME connection relayed to the SMSC, with the ESME's PDUs read on the way."""

    def __init__(self, smsc, reader, writer, upstream_port):
        self.smsc, self.reader, self.writer, self.upstream_port = smsc, reader, writer, upstream_port

    async def run(self):
        up_reader, self.up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        self.smsc.links.add(self)
        downstream = asyncio.ensure_future(self.pump(up_reader, self.writer))
        try:
            while True:
                header = await self.reader.readexactly(16)
                length, command = struct.unpack(">II", header[:8])
                pdu = header + await self.reader.readexactly(length - 16)
                drop = self.note(command, pdu[16:])
                self.up_writer.write(pdu)
                if drop:
                    await self.up_writer.drain()
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            self.close()
            downstream.cancel()

    def note(self, command, body):
        """Records what the ESME sent; true when this submit_sm is to be cut off after relaying."""
        with self.smsc.lock:
            self.smsc.commands.append(NAMES.get(command, hex(command)))
            if command == 0x09:
                system_id, password, system_type = c_strings(body, 3)
                self.smsc.binds.append({"system_id": system_id, "password": password, "system_type": system_type,
                                        "interface_version": body[len(system_id) + len(password) + len(system_type) + 3]})
            if command == 0x04 and self.smsc.plans and self.smsc.plans[0].get("drop"):
                self.smsc.plans.pop(0)
                return True
        return False

    async def pump(self, source, sink):
        try:
            while data := await source.read(65536):
                sink.write(data)
                await sink.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            self.close()

    def close(self):
        self.smsc.links.discard(self)
        for writer in (self.writer, getattr(self, "up_writer", None)):
            if writer is not None and not writer.is_closing():
                writer.close()


async def serve_smsc(smsc, port):
    server = smpp34.Server("127.0.0.1", port, system_id="SMSC")
    await server.start()
    while True:
        event = await server.next()
        if isinstance(event, smpp34.Esme):
            smsc.esme = event
        elif isinstance(event, smpp34.SubmitSmEvent):
            take(smsc, event)


def take(smsc, event):
    octets = event.short_message
    payload = [t.value for t in event.tlvs if t.tag == MESSAGE_PAYLOAD]
    if not octets and payload:
        octets = payload[0]
    text = octets.decode("utf-16-be") if event.data_coding == 8 else gsm_decode(octets)
    plan = smsc.plan()
    with smsc.lock:
        smsc.counter += 1
        message_id = f"msg-{smsc.counter:04d}"
        smsc.submits.append({"destination": event.destination_addr, "source": event.source_addr,
                             "dest_ton": event.dest_addr_ton, "dest_npi": event.dest_addr_npi,
                             "source_ton": event.source_addr_ton, "data_coding": event.data_coding,
                             "esm_class": event.esm_class, "registered_delivery": event.registered_delivery,
                             "payload": bool(payload), "text": text,
                             "message_id": None if plan else message_id})
    if plan and "reject" in plan:
        event.reject(plan["reject"])
    else:
        event.accept(message_id)


async def receipt(smsc, body):
    """Sends a delivery receipt to the bound ESME; answers the deliver_sm_resp's status."""
    text = (f"id:{body['message_id']} sub:001 dlvrd:{'001' if body['stat'] == 'DELIVRD' else '000'} "
            f"submit date:2601010000 done date:2601010000 stat:{body['stat']} err:{body.get('err', '000')} text:")
    reply = await smsc.esme.deliver_sm(body.get("to", "Acme"), text.encode(), source_addr=body["from"], esm_class=0x04)
    return reply.command_status


async def relay(smsc, listen_port, upstream_port):
    async def accept(reader, writer):
        await Link(smsc, reader, writer, upstream_port).run()
    server = await asyncio.start_server(accept, "127.0.0.1", listen_port)
    await server.serve_forever()


class Handler(FakeHandler):
    listings = ("submits", "binds", "commands")

    def control(self, name, body):
        smsc = self.fake
        if name == "drop":
            links = list(smsc.links)
            for link in links:
                smsc.loop.call_soon_threadsafe(link.close)
            return self.answer(200, {"dropped": len(links)})
        if name in ("reject", "drop_next_submit"):
            with smsc.lock:
                smsc.plans.append({"reject": body["status"]} if name == "reject" else {"drop": True})
            return self.answer(200, {})
        if name == "receipt":
            status = asyncio.run_coroutine_threadsafe(receipt(smsc, body), smsc.loop).result(timeout=10)
            return self.answer(200, {"status": status})
        return super().control(name, body)


def main():
    parser = argparse.ArgumentParser()
    parser.parse_args()
    loop = asyncio.new_event_loop()
    smsc = SMSC(loop)
    Handler.fake = smsc
    control = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=control.serve_forever, daemon=True).start()
    smpp_port, relay_port = free_port(), free_port()
    loop.create_task(serve_smsc(smsc, smpp_port))
    loop.create_task(relay(smsc, relay_port, smpp_port))
    loop.call_soon(lambda: print(f"smpp 127.0.0.1:{relay_port} control http://127.0.0.1:{control.server_port}", flush=True))
    loop.run_forever()


if __name__ == "__main__":
    main()
