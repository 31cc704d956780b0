/**
 * S3 as a simulator serves it: its XML errors, its `X-Amz-Date` format, and presigned POST
 * forms (S3's browser-based upload, as Webflow's asset upload uses it): a policy the
 * simulator signs with a secret of its own, and the check S3 makes of a form posted with it.
 * An altered policy is 403 `SignatureDoesNotMatch`, an expired one or a form that breaks a
 * condition (a field missing or changed, a field the policy does not name) 403 `AccessDenied`
 * "Invalid according to Policy: …", a file over the policy's `content-length-range` 400
 * `EntityTooLarge`, a form without a file 400 `InvalidArgument`.
 *
 * @since 0.2.0
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

/**
 * `20261123T181500Z`, as `X-Amz-Date` has a time.
 *
 * @since 0.2.0
 * @category utils
 */
export const amzDate = (at: number): string => new Date(at).toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "")

/**
 * The time of an `X-Amz-Date` in milliseconds, NaN when it is not one.
 *
 * @since 0.2.0
 * @category utils
 */
export const fromAmzDate = (text: string): number =>
  /^\d{8}T\d{6}Z$/.test(text)
    ? Date.parse(`${text.slice(0, 4)}-${text.slice(4, 6)}-${text.slice(6, 8)}T${text.slice(9, 11)}:${text.slice(11, 13)}:${text.slice(13, 15)}Z`)
    : Number.NaN

const xml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

/**
 * An S3 refusal: its status, S3's code and message, and the extra elements S3 adds (`Key`,
 * `MaxSizeAllowed`, …).
 *
 * @since 0.2.0
 * @category models
 */
export interface Refusal {
  readonly status: number
  readonly code: string
  readonly message: string
  readonly details?: Readonly<Record<string, string>> | undefined
}

/**
 * S3's XML error body: `<Error><Code>…</Code><Message>…</Message>…<RequestId>…</RequestId></Error>`.
 *
 * @since 0.2.0
 * @category utils
 */
export const errorXml = (refusal: Omit<Refusal, "status">): string => {
  const extra = Object.entries(refusal.details ?? {}).map(([name, value]) => `<${name}>${xml(value)}</${name}>`).join("")
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${xml(refusal.message)}</Message>${extra}<RequestId>${
    randomBytes(8).toString("hex").toUpperCase()
  }</RequestId><HostId>${randomBytes(24).toString("base64")}</HostId></Error>`
}

/**
 * What a presigned POST allows: the bucket, the object's key, the fields the form must carry
 * as they are (`acl`, `content-type`, `success_action_status`, …), the largest file, and when
 * the policy expires (ms).
 *
 * @since 0.2.0
 * @category models
 */
export interface PostPolicy {
  readonly bucket: string
  readonly key: string
  readonly fields: Readonly<Record<string, string>>
  readonly maxBytes: number
  readonly expiresAt: number
}

/**
 * A signer and checker of presigned POST forms, with a secret of its own.
 *
 * @since 0.2.0
 * @category models
 */
export interface PostSigner {
  /** The form's fields: the policy's own fields, `key`, the credential fields, `Policy` and `X-Amz-Signature`. */
  readonly sign: (policy: PostPolicy, now: number) => Record<string, string>
  /**
   * Checks a posted form (its fields before the file, in order) and the file's size as S3
   * does; undefined when S3 would store it, under the form's `key`.
   */
  readonly check: (fields: ReadonlyMap<string, string>, fileSize: number | undefined, now: number) => Refusal | undefined
}

// Fields S3 never asks the policy to name.
const unsigned = new Set(["policy", "x-amz-signature", "file"])

const denied = (message: string): Refusal => ({ status: 403, code: "AccessDenied", message: `Invalid according to Policy: ${message}` })

/**
 * Makes a signer of presigned POST forms (AWS4-HMAC-SHA256 in name; the signature is an
 * HMAC-SHA256 of the base64 policy with the signer's random secret).
 *
 * @since 0.2.0
 * @category constructors
 */
export const postSigner = (): PostSigner => {
  const secret = randomBytes(32)
  const signature = (policy: string) => createHmac("sha256", secret).update(policy).digest("hex")

  const sign = (policy: PostPolicy, now: number) => {
    const credentials = {
      "X-Amz-Algorithm": "AWS4-HMAC-SHA256",
      "X-Amz-Credential": `ASIASIMULATOR/${amzDate(now).slice(0, 8)}/us-east-1/s3/aws4_request`,
      "X-Amz-Date": amzDate(now)
    }
    const exact = { bucket: policy.bucket, key: policy.key, ...policy.fields, ...credentials }
    const document = {
      expiration: new Date(policy.expiresAt).toISOString(),
      conditions: [...Object.entries(exact).map(([name, value]) => ({ [name]: value })), ["content-length-range", 0, policy.maxBytes]]
    }
    const encoded = Buffer.from(JSON.stringify(document)).toString("base64")
    return { ...exact, Policy: encoded, "X-Amz-Signature": signature(encoded) }
  }

  const check = (fields: ReadonlyMap<string, string>, fileSize: number | undefined, now: number): Refusal | undefined => {
    // S3 matches field names case-insensitively.
    const form = new Map([...fields].map(([name, value]) => [name.toLowerCase(), value]))
    const encoded = form.get("policy")
    const provided = form.get("x-amz-signature")
    if (encoded === undefined || provided === undefined) return { status: 403, code: "AccessDenied", message: "Access Denied" }
    const expected = Buffer.from(signature(encoded))
    if (provided.length !== expected.length || !timingSafeEqual(Buffer.from(provided), expected)) {
      return {
        status: 403,
        code: "SignatureDoesNotMatch",
        message: "The request signature we calculated does not match the signature you provided. Check your key and signing method.",
        details: { StringToSign: encoded }
      }
    }
    const document = JSON.parse(Buffer.from(encoded, "base64").toString("utf8")) as {
      expiration: string
      conditions: ReadonlyArray<Readonly<Record<string, string>> | readonly [string, number, number]>
    }
    if (Date.parse(document.expiration) < now) return denied("Policy expired.")
    const named = new Set<string>()
    let maxBytes = Infinity
    for (const condition of document.conditions) {
      if (Array.isArray(condition)) {
        maxBytes = condition[2] as number
        continue
      }
      const [name, value] = Object.entries(condition)[0]!
      named.add(name.toLowerCase())
      if (form.get(name.toLowerCase()) !== value) return denied(`Policy Condition failed: ["eq", "$${name}", ${JSON.stringify(value)}]`)
    }
    const extra = [...fields.keys()].filter((name) => !named.has(name.toLowerCase()) && !unsigned.has(name.toLowerCase()))
    if (extra.length > 0) return denied(`Extra input fields: ${extra.join(", ")}`)
    if (fileSize === undefined) return { status: 400, code: "InvalidArgument", message: "POST requires exactly one file upload per request." }
    if (fileSize > maxBytes) {
      return {
        status: 400,
        code: "EntityTooLarge",
        message: "Your proposed upload exceeds the maximum allowed size",
        details: { ProposedSize: String(fileSize), MaxSizeAllowed: String(maxBytes) }
      }
    }
    return undefined
  }

  return { sign, check }
}
