#!/usr/bin/env python3
"""A real SMTP relay for TyreDesk's e-mail tests (issue 33), built on aiosmtpd.

Each test starts its own: it listens on a free loopback port, prints
"listening on <port>" once ready, and stores every message it accepts as
<dir>/<n>.eml (the bytes received) with <dir>/<n>.json (the envelope), written to a
temporary name and renamed, so a reader never sees half a message. <dir>/events.log
gets one line per DATA command and how it was answered.

  --fail-451 N   answer the first N DATA commands 451 (a temporary failure)
  --fail-554 N   answer the first N DATA commands 554 (a permanent failure)
  --hold S       hold the reply to the first DATA command S seconds, then store and
                 answer 250. aiosmtpd cancels the handler when the client goes away
                 (its eof_received and connection_lost cancel the session's task), so a
                 client killed during the hold leaves nothing stored: the relay never
                 accepted the message. The handler also checks the connection itself
                 before storing, in case an aiosmtpd version did not cancel it.

It exits when its standard input closes (the test process that started it ended).
"""

import argparse
import asyncio
import json
import os
import sys
import threading

from aiosmtpd.smtp import SMTP


class Relay:
    def __init__(self, args):
        self.args = args
        self.data_commands = 0
        self.stored = 0

    def log(self, line):
        with open(os.path.join(self.args.dir, "events.log"), "a") as f:
            f.write(line + "\n")

    async def handle_DATA(self, server, session, envelope):
        self.data_commands += 1
        n = self.data_commands
        a = self.args
        if n <= a.fail_451:
            self.log(f"DATA {n}: 451")
            return "451 4.3.0 Temporary failure (test relay)"
        if n <= a.fail_451 + a.fail_554:
            self.log(f"DATA {n}: 554")
            return "554 5.7.1 Message refused (test relay)"
        if n == 1 and a.hold > 0:
            self.log(f"DATA {n}: holding {a.hold}s")
            try:
                waited = 0.0
                while waited < a.hold:
                    await asyncio.sleep(0.05)
                    waited += 0.05
                    if server.transport is None or server.transport.is_closing() or server._reader.at_eof():
                        self.log(f"DATA {n}: client gone during the hold, nothing stored")
                        return "421 4.4.2 Client gone"
            except asyncio.CancelledError:
                self.log(f"DATA {n}: client gone during the hold (cancelled), nothing stored")
                raise
        self.stored += 1
        k = self.stored
        base = os.path.join(a.dir, f"{k:04d}")
        with open(base + ".tmp", "wb") as f:
            f.write(envelope.content if isinstance(envelope.content, bytes) else envelope.content.encode())
        os.rename(base + ".tmp", base + ".eml")
        with open(base + ".jtmp", "w") as f:
            json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos}, f)
        os.rename(base + ".jtmp", base + ".json")
        self.log(f"DATA {n}: 250 stored {k:04d}")
        return f"250 2.0.0 OK stored {k:04d}"


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--dir", required=True)
    p.add_argument("--port", type=int, default=0)
    p.add_argument("--fail-451", type=int, default=0)
    p.add_argument("--fail-554", type=int, default=0)
    p.add_argument("--hold", type=float, default=0)
    args = p.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    relay = Relay(args)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    server = loop.run_until_complete(
        loop.create_server(lambda: SMTP(relay, hostname="relay.test", ident="TyreDesk test relay"), host="127.0.0.1", port=args.port)
    )
    port = server.sockets[0].getsockname()[1]
    print(f"listening on {port}", flush=True)

    def watch_stdin():
        try:
            sys.stdin.read()
        finally:
            os._exit(0)

    threading.Thread(target=watch_stdin, daemon=True).start()
    loop.run_forever()


if __name__ == "__main__":
    main()
