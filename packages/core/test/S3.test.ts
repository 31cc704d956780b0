import { describe, expect, it } from "@effect/vitest"
import { S3 } from "../src/testing.js"

const now = Date.parse("2026-11-23T18:15:00.000Z")
const policy: S3.PostPolicy = {
  bucket: "assets",
  key: "site/abc_logo.png",
  fields: { acl: "public-read", "content-type": "image/png", success_action_status: "201" },
  maxBytes: 1024,
  expiresAt: now + 60_000
}

describe("S3 (testing)", () => {
  it("amzDate and fromAmzDate: S3's X-Amz-Date, both ways", () => {
    expect(S3.amzDate(now)).toBe("20261123T181500Z")
    expect(S3.fromAmzDate("20261123T181500Z")).toBe(now)
    expect(S3.fromAmzDate("2026-11-23")).toBeNaN()
  })

  it("errorXml: S3's error body, escaped", () => {
    const body = S3.errorXml({ code: "NoSuchKey", message: "a <b> & c", details: { Key: "x&y" } })
    expect(body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>NoSuchKey<\/Code><Message>a &lt;b&gt; &amp; c<\/Message><Key>x&amp;y<\/Key><RequestId>[0-9A-F]{16}<\/RequestId>/)
  })

  it("postSigner: a signed form passes the check as it is, and the policy names every field", () => {
    const signer = S3.postSigner()
    const fields = signer.sign(policy, now)
    expect(Object.keys(fields)).toEqual([
      "bucket", "key", "acl", "content-type", "success_action_status", "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "Policy", "X-Amz-Signature"
    ])
    const document = JSON.parse(Buffer.from(fields["Policy"]!, "base64").toString("utf8"))
    expect(document.expiration).toBe("2026-11-23T18:16:00.000Z")
    expect(document.conditions).toContainEqual(["content-length-range", 0, 1024])
    expect(signer.check(new Map(Object.entries(fields)), 1024, now)).toBeUndefined()
    // Another signer's secret does not check it.
    expect(S3.postSigner().check(new Map(Object.entries(fields)), 10, now)?.code).toBe("SignatureDoesNotMatch")
  })

  it("postSigner: refuses an expired or altered policy, a missing, changed or extra field, no file, a file too large", () => {
    const signer = S3.postSigner()
    const fields = signer.sign(policy, now)
    const form = (change: Record<string, string | undefined>) => {
      const map = new Map(Object.entries(fields))
      for (const [name, value] of Object.entries(change)) value === undefined ? map.delete(name) : map.set(name, value)
      return map
    }
    const forged = Buffer.from(Buffer.from(fields["Policy"]!, "base64").toString("utf8").replace("1024", "999999")).toString("base64")
    const cases: Array<[S3.Refusal | undefined, number, string, string]> = [
      [signer.check(form({}), 10, now + 61_000), 403, "AccessDenied", "Invalid according to Policy: Policy expired."],
      [signer.check(form({ Policy: forged }), 10, now), 403, "SignatureDoesNotMatch", "The request signature we calculated does not match the signature you provided. Check your key and signing method."],
      [signer.check(form({ "X-Amz-Signature": undefined }), 10, now), 403, "AccessDenied", "Access Denied"],
      [signer.check(form({ acl: undefined }), 10, now), 403, "AccessDenied", `Invalid according to Policy: Policy Condition failed: ["eq", "$acl", "public-read"]`],
      [signer.check(form({ key: "site/other.png" }), 10, now), 403, "AccessDenied", `Invalid according to Policy: Policy Condition failed: ["eq", "$key", "site/abc_logo.png"]`],
      [signer.check(form({ "x-amz-meta-owner": "me" }), 10, now), 403, "AccessDenied", "Invalid according to Policy: Extra input fields: x-amz-meta-owner"],
      [signer.check(form({}), undefined, now), 400, "InvalidArgument", "POST requires exactly one file upload per request."],
      [signer.check(form({}), 1025, now), 400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size"]
    ]
    for (const [refusal, status, code, message] of cases) expect(refusal).toMatchObject({ status, code, message })
    // Field names are matched as S3 matches them: without regard to case.
    expect(signer.check(new Map(Object.entries(fields).map(([name, value]) => [name.toLowerCase(), value])), 10, now)).toBeUndefined()
  })
})
