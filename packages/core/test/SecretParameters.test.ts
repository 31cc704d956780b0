/**
 * Secret parameters: a secret text or a secret OBJECT (its values), also inside an object's
 * declared fields, is described as secret, redacted for what is stored or shown
 * (`Property.redact`), and scrubbed from the step's output and error, while the provider gets
 * the real values.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import nock from "nock"
import { CustomAction, Executor, Property } from "../src/index.js"
import { connected, connectionValues, fixture } from "./support.js"

const props = {
  name: Property.string({ title: "Name" }),
  password: Property.secret({ title: "Password" }),
  sensitiveData: Property.object({ title: "Sensitive Data", secret: true }),
  proxy: Property.object({
    title: "Proxy",
    properties: { host: Property.string({ title: "Host" }), password: Property.secret({ title: "Password" }) }
  }),
  logins: Property.array({
    title: "Logins",
    items: Property.object({ title: "Login", properties: { user: Property.string({ title: "User" }), key: Property.secret({ title: "Key" }) } })
  })
}

describe("secret parameters", () => {
  it("a secret OBJECT is described as secret; the custom action's headers are", () => {
    expect(Property.describe(props.sensitiveData)).toEqual({ kind: "OBJECT", title: "Sensitive Data", required: false, secret: true })
    expect(Property.describe(CustomAction.action.props.headers)).toMatchObject({ kind: "OBJECT", secret: true })
  })

  it("Property.redact: every secret value replaced, an object's keys kept, also in declared fields and items; the rest as given", () => {
    const given = {
      name: "Ann",
      password: "pw-0123456789",
      sensitiveData: { site_password: "s3cret-value", otp: "123456" },
      proxy: { host: "proxy.test", password: "proxy-pw-0123" },
      logins: [{ user: "a", key: "key-a-0123" }, { user: "b" }],
      unknown: "kept"
    }
    expect(Property.redact(props, given)).toEqual({
      name: "Ann",
      password: "[secret]",
      sensitiveData: { site_password: "[secret]", otp: "[secret]" },
      proxy: { host: "proxy.test", password: "[secret]" },
      logins: [{ user: "a", key: "[secret]" }, { user: "b" }],
      unknown: "kept"
    })
    // A secret given as something else (a reference not yet resolved, say) is hidden whole.
    expect(Property.redact(props, { sensitiveData: "${inputs.logins}", password: null })).toEqual({ sensitiveData: "[secret]", password: null })
    // No secret among the properties: the record itself.
    const plain = { name: "Ann" }
    expect(Property.redact({ name: props.name }, plain)).toBe(plain)
  })
})

describe("secret parameters are scrubbed from the step's output and error", () => {
  const BASE = "https://api.fixture.test/1"
  const executor = Executor.make([fixture])
  const custom = (parameters: Record<string, unknown>) =>
    executor.run({ label: "Custom", name: "custom", type: "fixture/v1/customAction", parameters }).pipe(
      Effect.provide(connected({ fixture: connectionValues }))
    )
  const token = "site-token-0123456789"
  beforeAll(() => nock.disableNetConnect())
  afterEach(() => {
    nock.cleanAll()
  })
  afterAll(() => nock.enableNetConnect())

  it.effect("a header's value is sent as given, and replaced where the provider echoes it", () =>
    Effect.gen(function*() {
      nock(BASE).get("/echo").matchHeader("x-site-token", token).reply(200, (_, __) => ({ youSent: token }))
      const output = yield* custom({ method: "GET", path: "/echo", headers: { "X-Site-Token": token } })
      expect(JSON.stringify(output)).not.toContain(token)
      expect(output).toMatchObject({ status: 200, body: { youSent: "[redacted]" } })
      nock(BASE).get("/echo").matchHeader("x-site-token", token).reply(401, { message: `token ${token} is not valid` })
      const error = yield* Effect.flip(custom({ method: "GET", path: "/echo", headers: { "X-Site-Token": token } }))
      expect(error).toMatchObject({ _tag: "AuthenticationFailed", message: "token [redacted] is not valid" })
      expect(JSON.stringify(error)).not.toContain(token)
    }))

  it.effect("the headers that carry no credential (Accept, Content-Type …) are neither redacted nor scrubbed", () =>
    Effect.gen(function*() {
      nock(BASE).get("/echo").matchHeader("accept", "application/json").matchHeader("x-site-token", token)
        .reply(200, { youSent: token, format: "application/json" }, { "content-type": "application/json" })
      const headers = { Accept: "application/json", "X-Site-Token": token }
      const output = yield* custom({ method: "GET", path: "/echo", headers })
      expect(output).toMatchObject({ status: 200, headers: { "content-type": "application/json" }, body: { youSent: "[redacted]", format: "application/json" } })
      expect(Property.redact(CustomAction.action.props, { method: "GET", path: "/echo", headers })).toEqual({
        method: "GET",
        path: "/echo",
        headers: { Accept: "application/json", "X-Site-Token": "[secret]" }
      })
    }))
})
