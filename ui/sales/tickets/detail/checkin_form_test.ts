import assert from "node:assert/strict";
import { withEnv } from "../../../../scripts/testing/harness.ts";
import { heldLine, logOf } from "../../../../api/sales/lines/checkin_fixtures.ts";

/** The outcome cookie a 303 sets, as the browser sends it back. */
const flashOf = (res: Response) => {
  const set = res.headers.get("set-cookie") ?? "";
  const m = /checkin_outcome=[^;]*/.exec(set);
  return m ? m[0] : "";
};

Deno.test("check-in form - a cross-site post is refused with 403 and checks nothing in", () =>
  withEnv(async (env) => {
    const a = await heldLine(env, { quantity: 2, row: { serial_number: "X-1" } });
    const token = await env.login();
    const crossSite: Record<string, string>[] = [{ origin: "https://evil.example" }, {
      "sec-fetch-site": "cross-site",
    }];
    for (const headers of crossSite) {
      const res = await env.request(`/sales/tickets/${a.ticketId}/check-in`, {
        method: "POST",
        cookie: `session=${token}`,
        headers,
        form: { line: String(a.lineId), [`in.${a.lineId}`]: "1", action: "submit" },
      });
      assert.equal(res.status, 403, JSON.stringify(headers));
      await res.body?.cancel();
    }
    assert.equal((await logOf(env, a.lineId)).length, 0);
  }));

Deno.test("check-in form - Submit checks in and comes back 303 to check-in mode saying so", () =>
  withEnv(async (env) => {
    const a = await heldLine(env, { quantity: 2, row: { serial_number: "OK-1" } });
    const cookie = `session=${await env.login()}`;
    const res = await env.request(`/sales/tickets/${a.ticketId}/check-in`, {
      method: "POST",
      cookie,
      form: { line: String(a.lineId), [`in.${a.lineId}`]: "2", action: "submit" },
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get("location"), `/sales/tickets/${a.ticketId}?mode=checkin`);
    assert.equal((await logOf(env, a.lineId))[0]?.quantity_in, 2);
    const page = await env.request(res.headers.get("location")!, { cookie: `${cookie}; ${flashOf(res)}` });
    const html = await page.text();
    assert.match(html, /role="status"[^>]*>Checked in 1 line</);
    // Read once: the page clears it.
    assert.match(page.headers.get("set-cookie") ?? "", /checkin_outcome=;/);
  }));

Deno.test("check-in form - Enter (the form's default, Select line) never sends a check-in", () =>
  withEnv(async (env) => {
    const a = await heldLine(env, { quantity: 3, row: { serial_number: "SCAN-9" } });
    const cookie = `session=${await env.login()}`;
    // A scanner's Enter in a quantity field: the serial field is empty, the typed quantity is kept, nothing sent.
    let res = await env.request(`/sales/tickets/${a.ticketId}/check-in`, {
      method: "POST",
      cookie,
      form: { line: String(a.lineId), [`in.${a.lineId}`]: "1SCAN-9" },
    });
    assert.equal(res.status, 303);
    let html =
      await (await env.request(res.headers.get("location")!, { cookie: `${cookie}; ${flashOf(res)}` }))
        .text();
    assert.match(html, /Nothing was sent: scan or type a serial number/);
    assert.match(html, /value="1SCAN-9"/);
    // Its serial in the serial field: its line selected with all that is out.
    res = await env.request(`/sales/tickets/${a.ticketId}/check-in`, {
      method: "POST",
      cookie,
      form: { serial: "scan-9", action: "select" },
    });
    html = await (await env.request(res.headers.get("location")!, { cookie: `${cookie}; ${flashOf(res)}` }))
      .text();
    assert.match(html, /SCAN-9: 3 in\. Scan the next one/);
    assert.match(
      html,
      new RegExp(`name="in\\.${a.lineId}"[^>]*value="3"|value="3"[^>]*name="in\\.${a.lineId}"`),
    );
    assert.equal((await logOf(env, a.lineId)).length, 0);
  }));

Deno.test("check-in form - the service's refusal comes back at its line with the values as typed", () =>
  withEnv(async (env) => {
    // Remove Quantity is for Itemized items: the form shows no such box on a Serialized line, the service
    // refuses a post that sends one anyway.
    const a = await heldLine(env, {
      quantity: 1,
      item: { inventory_type: "Serialized" },
      row: { serial_number: "SER-1" },
    });
    const cookie = `session=${await env.login()}`;
    const res = await env.request(`/sales/tickets/${a.ticketId}/check-in`, {
      method: "POST",
      cookie,
      form: {
        line: String(a.lineId),
        [`in.${a.lineId}`]: "1",
        [`remove.${a.lineId}`]: "1",
        [`date.${a.lineId}`]: "2026-03-04T10:15",
        action: "submit",
      },
    });
    assert.equal(res.status, 303);
    assert.equal((await logOf(env, a.lineId)).length, 0);
    const html =
      await (await env.request(res.headers.get("location")!, { cookie: `${cookie}; ${flashOf(res)}` }))
        .text();
    assert.match(html, /role="alert"[^>]*>Nothing was checked in: a line needs a change\.</);
    assert.match(html, /class="field-error" role="alert">Remove quantity is for Itemized items only</);
    assert.match(html, /value="2026-03-04T10:15"/);
  }));

Deno.test("check-in form - an outcome cookie not as the server wrote it is ignored: the page still opens", () =>
  withEnv(async (env) => {
    const a = await heldLine(env, { quantity: 2, row: { serial_number: "TAMPER-1" } });
    const cookie = `session=${await env.login()}`;
    for (
      const value of [
        "not json",
        "null",
        "7",
        '{"e":[1,2],"x":[3,[4]]}',
        '{"e":[[1,1,2,3,4,5]],"x":[["a",5]]}',
      ]
    ) {
      const page = await env.request(`/sales/tickets/${a.ticketId}?mode=checkin`, {
        cookie: `${cookie}; checkin_outcome=${encodeURIComponent(value)}`,
      });
      assert.equal(page.status, 200, value);
      assert.match(await page.text(), /Submit Check-In/, value);
    }
  }));
