import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import nock from "nock"
import { createHash } from "node:crypto"
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Auth, FileInput, Files, Property, ProviderClient, ProviderRequest, RateLimiter } from "../src/index.js"
import { Loopback } from "../src/testing.js"
import { generated, sentOnlyAsWritten } from "../../../tooling/testing/streamedBody.js"


const API = "https://api.example.test"
const TOKEN = "tok_0123456789abcdef"

const fetchHttp = Effect.runSync(Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer))
const clientOf = (baseUrl = `${API}/v1`, retry: ProviderClient.Settings["retry"] = { maxRetries: 2, baseDelay: "1 millis", maxDelay: "1 millis" }) =>
  ProviderClient.makeWith(fetchHttp, RateLimiter.make(), {
    baseUrl,
    credentials: Auth.bearer(Redacted.make(TOKEN)),
    retry
  })

const dir = mkdtempSync(join(tmpdir(), "files-test-"))
const fileAt = (name: string, content: string | Buffer) => {
  const path = join(dir, name)
  writeFileSync(path, content)
  return path
}

/** A loopback server for these tests; closed after them. */
const serve = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
  const server = createServer(handler)
  const origin = await Loopback.listen(server)
  servers.push(server)
  return origin
}
const servers: Array<import("node:http").Server> = []

beforeAll(() => nock.disableNetConnect())
afterEach(() => nock.cleanAll())
afterAll(async () => {
  nock.enableNetConnect()
  await Promise.all(servers.map(Loopback.close))
})
// Loopback servers are real: nock lets 127.0.0.1 through.
beforeAll(() => nock.enableNetConnect("127.0.0.1"))

const errorOf = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flip(effect)

describe("FileInput.property", () => {
  const decode = Property.decoder({ file: FileInput.property({ title: "File", required: true, maxBytes: 1024 }) }, "upload")

  it("takes a path, a URL or base64 with a name, as given (nothing opened)", () => {
    for (const file of [
      { path: "/no/such/file.txt" },
      { path: "/tmp/a.bin", name: "a.bin", contentType: "application/octet-stream" },
      { url: "https://example.test/report.pdf" },
      { base64: "aGVsbG8=", name: "hello.txt", contentType: "text/plain; charset=utf-8" }
    ]) {
      const decoded = decode({ file })
      expect(Either.isRight(decoded) && decoded.right.file).toBe(file)
    }
  })

  it("refuses bad shapes with an InvalidInput naming the field", () => {
    const cases: Array<[unknown, string]> = [
      ["a.txt", "must be a file: { path }, { url } or { name, base64 }"],
      [{ path: "/a", url: "https://x.test/a" }, "must have exactly one of path, url or base64"],
      [{}, "must have exactly one of path, url or base64"],
      [{ base64: "aGk=" }, "a base64 file needs a name"],
      [{ url: "ftp://x.test/a" }, "url must be an http or https URL"],
      [{ path: "" }, "path must be a non-empty string"],
      [{ path: "/a", contentType: "text/plain\r\nX-Evil: 1" }, "contentType must be a media type, e.g. text/plain"],
      [{ path: "/a", size: 3 }, `has an unknown field "size"`]
    ]
    for (const [file, message] of cases) {
      const decoded = decode({ file })
      expect(Either.isLeft(decoded)).toBe(true)
      if (Either.isLeft(decoded)) expect(decoded.left.issues).toEqual([{ path: "file", message }])
    }
  })

  it("is described as a FILE with its sources and limit", () => {
    expect(Property.describe(FileInput.property({ title: "File", maxBytes: 10 * FileInput.MiB }))).toEqual({
      kind: "FILE",
      title: "File",
      required: false,
      sources: ["path", "url", "base64"],
      maxBytes: 10485760
    })
  })
})

const open = (input: FileInput.FileInput, maxBytes: number, client = clientOf()) =>
  FileInput.open(client, input, { field: "file", maxBytes })

const bytesOf = (file: FileInput.OpenedFile) => Effect.promise(async () => Buffer.from(await file.blob.arrayBuffer()))

describe("FileInput.open", () => {
  it.scoped("a path: its bytes, name (the path's last segment) and a content type guessed from it", () =>
    Effect.gen(function*() {
      const file = yield* open({ path: fileAt("notes.txt", "hello") }, 5)
      expect([file.name, file.contentType, file.size]).toEqual(["notes.txt", "text/plain", 5])
      expect((yield* bytesOf(file)).toString()).toBe("hello")
      const missing = yield* errorOf(open({ path: join(dir, "missing.txt") }, 5))
      expect(missing).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "file", message: `no file at ${join(dir, "missing.txt")}` }] })
      expect((yield* errorOf(open({ path: dir }, 5))).message).toBe(`file: ${dir} is not a regular file`)
    }))

  it.scoped("a path over the limit: an InvalidInput with the field, its size and the limit", () =>
    Effect.gen(function*() {
      const error = yield* errorOf(open({ path: fileAt("big.bin", Buffer.alloc(2048)) }, 1024))
      expect(error._tag).toBe("InvalidInput")
      expect(error.message).toBe("file is 2 KiB (2048 bytes), over its limit of 1 KiB (1024 bytes)")
    }))

  it.scoped("base64: decoded (standard or URL-safe); over the limit refused from its length, before decoding", () =>
    Effect.gen(function*() {
      const file = yield* open({ base64: Buffer.from("héllo").toString("base64"), name: "h.json" }, 6)
      expect([file.name, file.contentType, (yield* bytesOf(file)).toString()]).toEqual(["h.json", "application/json", "héllo"])
      const urlSafe = yield* open({ base64: Buffer.from([251, 255]).toString("base64url"), name: "x" }, 6)
      expect([...(yield* bytesOf(urlSafe))]).toEqual([251, 255])
      const tooLarge = yield* errorOf(open({ base64: "A".repeat(4000), name: "x" }, 1024))
      expect(tooLarge.message).toBe("file is 2.9 KiB (3000 bytes), over its limit of 1 KiB (1024 bytes)")
      expect((yield* errorOf(open({ base64: "not base64!", name: "x" }, 1024))).message).toBe("file: base64 is not valid base64")
    }))

  it.effect("a URL: read without the connection's credentials into a 0600 temporary file, removed with the scope", () =>
    Effect.gen(function*() {
      const seen: Array<string | undefined> = []
      const origin = yield* Effect.promise(() =>
        serve((req, res) => {
          seen.push(req.headers.authorization)
          const path = new URL(req.url ?? "/", "http://x").pathname
          if (path === "/report.csv") return void res.writeHead(200, { "content-type": "text/csv" }).end("a,b\n1,2\n")
          if (path === "/declared") return void res.writeHead(200, { "content-length": "5000" }).end(Buffer.alloc(5000))
          if (path === "/chunked") {
            // No Content-Length: counted as it arrives.
            res.writeHead(200)
            let sent = 0
            const more = () => {
              while (sent < 10 * 1024 * 1024) {
                sent += 65536
                if (!res.write(Buffer.alloc(65536))) return void res.once("drain", more)
              }
              res.end()
            }
            return more()
          }
          res.writeHead(404, { "content-type": "text/plain" }).end("no such report")
        })
      )
      const temporary = () => readdirSync(tmpdir()).filter((name) => name.startsWith("x-connectors-")).length
      const before = temporary()
      const file = yield* Effect.scoped(Effect.gen(function*() {
        const file = yield* open({ url: `${origin}/report.csv?signature=s3cret` }, 1024)
        expect(temporary()).toBe(before + 1)
        const [made] = readdirSync(tmpdir()).filter((name) => name.startsWith("x-connectors-"))
          .filter((name) => existsSync(join(tmpdir(), name, "file")))
        expect(statSync(join(tmpdir(), made!, "file")).mode & 0o777).toBe(0o600)
        expect((yield* bytesOf(file)).toString()).toBe("a,b\n1,2\n")
        return file
      }))
      expect([file.name, file.contentType, file.size]).toEqual(["report.csv", "text/csv", 8])
      expect(temporary()).toBe(before)
      expect(seen).toEqual([undefined])
      const declared = yield* Effect.scoped(errorOf(open({ url: `${origin}/declared` }, 1024)))
      expect(declared.message).toBe("file is 4.9 KiB (5000 bytes), over its limit of 1 KiB (1024 bytes)")
      const counted = yield* Effect.scoped(errorOf(open({ url: `${origin}/chunked` }, 1024 * 1024)))
      expect(counted.message).toBe("file is larger than its limit of 1 MiB (1048576 bytes)")
      const missing = yield* Effect.scoped(errorOf(open({ url: `${origin}/gone?signature=s3cret` }, 1024)))
      expect(missing.message).toBe(`file: ${origin}/gone answered 404: no such report`)
      expect(temporary()).toBe(before)
    }))
})

describe("multipart bodies", () => {
  it.scoped("are sent as multipart/form-data with the fields, then the file, its Content-Length and the credentials", () =>
    Effect.gen(function*() {
      let body = ""
      let contentType = ""
      const scope = nock(API, { reqheaders: { authorization: `Bearer ${TOKEN}` } })
        .post("/v1/cards/c1/attachments", (b) => {
          body = typeof b === "string" ? b : Buffer.from(b as never).toString()
          return true
        })
        .reply(function() {
          contentType = String(this.req.headers["content-type"])
          return [200, { id: "a1" }]
        })
      const file = yield* open({ path: fileAt("report.txt", "line 1\nline 2\n"), contentType: "text/plain" }, 1024)
      const output = yield* clientOf().json({
        method: "POST",
        path: "/cards/c1/attachments",
        body: ProviderRequest.multipartBody({ fields: { name: "Q3 \"report\"", setCover: false, skip: undefined }, files: { file } })
      }, Schema.Struct({ id: Schema.String }))
      expect(output).toEqual({ id: "a1" })
      expect(scope.isDone()).toBe(true)
      const boundary = /^multipart\/form-data; boundary=(----x-connectors-[0-9a-f]{32})$/.exec(contentType)?.[1]
      expect(boundary).toBeDefined()
      expect(body).toBe(
        `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nQ3 "report"\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="setCover"\r\n\r\nfalse\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.txt"\r\nContent-Type: text/plain\r\n\r\n` +
          `line 1\nline 2\n\r\n--${boundary}--\r\n`
      )
    }))

  it.scopedLive("a retried upload resends the whole body", () =>
    Effect.gen(function*() {
      const bodies: Array<string> = []
      const content = "x".repeat(100_000)
      nock(API).post("/v1/upload", (b) => {
        bodies.push(typeof b === "string" ? b : Buffer.from(b as never).toString())
        return true
      }).reply(503, "busy").post("/v1/upload", (b) => {
        bodies.push(typeof b === "string" ? b : Buffer.from(b as never).toString())
        return true
      }).reply(200, {})
      const file = yield* open({ path: fileAt("retry.txt", content) }, 1024 * 1024)
      yield* clientOf().void({ method: "POST", path: "/upload", body: ProviderRequest.multipartBody({ files: { file } }) })
      expect(bodies).toHaveLength(2)
      expect(bodies[1]).toBe(bodies[0])
      expect(bodies[0]).toContain(content)
    }))

  it.scoped("a file over its limit is refused before anything is sent", () =>
    Effect.gen(function*() {
      const scope = nock(API).post("/v1/upload").reply(200, {})
      const upload = Effect.flatMap(open({ path: fileAt("over.bin", Buffer.alloc(1025)) }, 1024), (file) =>
        clientOf().void({ method: "POST", path: "/upload", body: ProviderRequest.multipartBody({ files: { file } }) }))
      expect((yield* errorOf(upload))._tag).toBe("InvalidInput")
      expect(scope.isDone()).toBe(false)
    }))
})

/** A loopback server that records each request's headers and body, and answers them all alike. */
const recording = (status: number, contentType: string, answer: string) =>
  Effect.gen(function*() {
    const received: Array<{ headers: IncomingMessage["headers"]; body: Buffer }> = []
    const origin = yield* Effect.promise(() =>
      serve((req, res) => {
        const chunks: Array<Buffer> = []
        req.on("data", (c: Buffer) => chunks.push(c))
        req.on("end", () => {
          received.push({ headers: req.headers, body: Buffer.concat(chunks) })
          res.writeHead(status, { "content-type": contentType }).end(answer)
        })
      })
    )
    return { origin, received }
  })

describe("on the wire (a loopback server)", () => {
  it.scoped("a multipart body and a presigned PUT carry a Content-Length (not chunked) that a form parser reads", () =>
    Effect.gen(function*() {
      const { origin, received } = yield* recording(200, "application/json", "{}")
      const file = yield* open({ path: fileAt("wire.csv", "a,b\n1,2\n") }, 1024)
      yield* clientOf(origin).void({
        method: "POST",
        path: "/attachments",
        body: ProviderRequest.multipartBody({ fields: { name: "Wire" }, files: { file } })
      })
      yield* Files.upload(clientOf(origin), { url: `${origin}/presigned?sig=1` }, file)
      const [multipart, presigned] = received
      expect(multipart!.headers["content-length"]).toBe(String(multipart!.body.length))
      expect(multipart!.headers["transfer-encoding"]).toBeUndefined()
      expect(multipart!.headers.authorization).toBe(`Bearer ${TOKEN}`)
      const form = yield* Effect.promise(() =>
        new Response(new Uint8Array(multipart!.body), { headers: { "content-type": multipart!.headers["content-type"]! } }).formData()
      )
      expect(form.get("name")).toBe("Wire")
      const part = form.get("file") as File
      expect([part.name, part.type, yield* Effect.promise(() => part.text())]).toEqual(["wire.csv", "text/csv", "a,b\n1,2\n"])
      expect([presigned!.headers["content-length"], presigned!.headers["content-type"], presigned!.body.toString()])
        .toEqual(["8", "text/csv", "a,b\n1,2\n"])
      expect(presigned!.headers.authorization).toBeUndefined()
    }))
})

describe("Files.upload (presigned)", () => {
  it.scoped("PUTs the file as the whole body, with its type and length, and no credentials", () =>
    Effect.gen(function*() {
      const scope = nock("https://bucket.storage.test", { badheaders: ["authorization"] })
        .put("/uploads/abc?X-Signature=sig", "a,b\n1,2\n")
        .matchHeader("content-type", "text/csv")
        .matchHeader("x-amz-meta-origin", "x")
        .reply(200, "")
      const file = yield* open({ base64: Buffer.from("a,b\n1,2\n").toString("base64"), name: "r.csv" }, 1024)
      yield* Files.upload(clientOf(), {
        url: "https://bucket.storage.test/uploads/abc?X-Signature=sig",
        headers: { "x-amz-meta-origin": "x" }
      }, file)
      expect(scope.isDone()).toBe(true)
      // Its errors are typed, and never show the URL's query (the signature).
      nock("https://bucket.storage.test").put("/uploads/abc?X-Signature=sig").reply(403, "<Error><Message>expired</Message></Error>")
      const error = yield* errorOf(Files.upload(clientOf(), { url: "https://bucket.storage.test/uploads/abc?X-Signature=sig" }, file))
      expect(error._tag).toBe("PermissionDenied")
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain("X-Signature")
    }))
})

const MiB = 1024 * 1024

describe("Files.uploadForm (a presigned POST form)", () => {
  it.scoped("POSTs every field in order, then the file last, streamed with a Content-Length, and no credentials", () =>
    Effect.gen(function*() {
      const { origin, received } = yield* recording(201, "application/xml", "<PostResponse><Key>k</Key></PostResponse>")
      const file = yield* open({ path: fileAt("logo.png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255])) }, 1024)
      const fields = { key: "site/abc_logo.png", "content-type": "image/png", Policy: "eyJ9", "X-Amz-Signature": "f00d" }
      yield* Files.uploadForm(clientOf(origin), { url: `${origin}/bucket`, fields }, file)
      const [post] = received
      expect(post!.headers.authorization).toBeUndefined()
      expect(post!.headers["content-length"]).toBe(String(post!.body.length))
      expect(post!.headers["transfer-encoding"]).toBeUndefined()
      const form = yield* Effect.promise(() =>
        new Response(new Uint8Array(post!.body), { headers: { "content-type": post!.headers["content-type"]! } }).formData()
      )
      // S3 ignores every field after the file: the fields first, in their order, the file last.
      expect([...form.keys()]).toEqual(["key", "content-type", "Policy", "X-Amz-Signature", "file"])
      expect(Object.fromEntries([...form].filter(([name]) => name !== "file"))).toEqual(fields)
      const part = form.get("file") as File
      expect([part.name, part.type]).toEqual(["logo.png", "image/png"])
      expect(Buffer.from(yield* Effect.promise(() => part.arrayBuffer()))).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]))
    }))

  it.scoped("a refusal (S3's 403 XML) is a typed error that does not show the form's signature", () =>
    Effect.gen(function*() {
      nock("https://bucket.storage.test", { badheaders: ["authorization"] }).post("/assets")
        .reply(403, "<Error><Code>AccessDenied</Code><Message>Invalid according to Policy: Policy expired.</Message></Error>", { "content-type": "application/xml" })
      const file = yield* open({ base64: Buffer.from("hi").toString("base64"), name: "a.txt" }, 1024)
      const error = yield* errorOf(Files.uploadForm(clientOf(), { url: "https://bucket.storage.test/assets", fields: { "X-Amz-Signature": "s3cr3t-signature" } }, file))
      expect(error._tag).toBe("PermissionDenied")
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain("s3cr3t-signature")
    }))
})

describe("FileInput.digest", () => {
  it.scoped("hashes an opened file's bytes as a stream (MD5 hex, as Webflow asks), larger than a stream chunk", () =>
    Effect.gen(function*() {
      const bytes = Buffer.alloc(3 * MiB + 17, 7)
      bytes.write("head", 0)
      const file = yield* open({ path: fileAt("big-hash.bin", bytes) }, 4 * MiB)
      expect(yield* FileInput.digest(file, "md5")).toBe(createHash("md5").update(bytes).digest("hex"))
      expect(yield* FileInput.digest(file, "sha256")).toBe(createHash("sha256").update(bytes).digest("hex"))
      const small = yield* open({ base64: Buffer.from("hello").toString("base64"), name: "h.txt" }, 1024)
      expect(yield* FileInput.digest(small, "md5")).toBe("5d41402abc4b2a76b9719d911017c592")
    }))

  it.scoped("a file changed since it was opened is an InvalidInput naming the field", () =>
    Effect.gen(function*() {
      const path = fileAt("changing.txt", "first")
      const file = yield* open({ path }, 1024)
      writeFileSync(path, "changed, longer")
      const error = yield* errorOf(FileInput.digest(file, "md5", "upload"))
      expect(error).toMatchObject({ _tag: "InvalidInput", issues: [{ path: "upload" }] })
    }))
})


describe("Files.download", () => {
  it.effect("streams a body larger than 64 MiB to disk, without buffering it (0600, renamed when complete)", () =>
    Effect.gen(function*() {
      const size = 72 * MiB
      // The second half is sent only once the first is on disk: a body held whole would never be.
      const origin = yield* Effect.promise(() => serve(sentOnlyAsWritten({ size, dir, contentType: "application/zip" })))
      const to = join(dir, "big.zip")
      const downloaded = yield* Files.download(clientOf(origin), { method: "GET", path: "/export" }, { to })
      expect(downloaded).toEqual({ path: to, size, contentType: "application/zip" })
      expect(statSync(to).size).toBe(size)
      expect(statSync(to).mode & 0o777).toBe(0o600)
      expect(readdirSync(dir).filter((name) => name.endsWith(".part"))).toEqual([])
    }))

  it.effect("a download that fails leaves nothing under the target's name (nor a temporary file)", () =>
    Effect.gen(function*() {
      const origin = yield* Effect.promise(() =>
        serve((req, res) => {
          if (req.url === "/cut") {
            // Half the declared body, then the connection is cut.
            res.writeHead(200, { "content-length": "200000" })
            res.write(Buffer.alloc(100_000))
            setTimeout(() => res.destroy(), 20)
            return
          }
          generated(3 * MiB, "application/zip")(req, res)
        })
      )
      const target = join(dir, "cut.bin")
      const client = clientOf(origin, { maxRetries: 0, baseDelay: "1 millis", maxDelay: "1 millis" })
      const cut = yield* errorOf(Files.download(client, { method: "GET", path: "/cut" }, { to: target }))
      expect(cut._tag).toBe("UnexpectedResponse")
      const over = yield* errorOf(Files.download(client, { method: "GET", path: "/big" }, { to: target, maxBytes: MiB }))
      expect(over.message).toBe("the file is 3 MiB (3145728 bytes), over the limit of 1 MiB (1048576 bytes)")
      expect(existsSync(target)).toBe(false)
      expect(readdirSync(dir).filter((name) => name.includes("cut.bin"))).toEqual([])
      const unwritable = yield* errorOf(Files.download(client, { method: "GET", path: "/big" }, { to: join(dir, "no", "x.bin"), field: "target" }))
      expect(unwritable._tag).toBe("InvalidInput")
      expect(unwritable._tag === "InvalidInput" && unwritable.issues[0]?.path).toBe("target")
    }))

  it.effect("downloadUrl: an external URL, without the connection's credentials", () =>
    Effect.gen(function*() {
      const seen: Array<string | undefined> = []
      const origin = yield* Effect.promise(() =>
        serve((req, res) => {
          seen.push(req.headers.authorization)
          res.writeHead(200, { "content-type": "text/plain" }).end("presigned bytes")
        })
      )
      const to = join(dir, "presigned.txt")
      const downloaded = yield* Files.downloadUrl(clientOf(), `${origin}/f?sig=1`, { to })
      expect(downloaded.size).toBe(15)
      expect(readFileSync(to, "utf8")).toBe("presigned bytes")
      expect(seen).toEqual([undefined])
      expect(createHash("sha256").update(readFileSync(to)).digest("hex")).toBe(
        createHash("sha256").update("presigned bytes").digest("hex")
      )
    }))
})
