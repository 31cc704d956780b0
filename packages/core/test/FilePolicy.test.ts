/**
 * The file policy (`FilePolicy`): path inputs inside the files directory (symlinks resolved),
 * URL inputs and external requests kept off loopback, private, link-local and other internal
 * addresses, download destinations inside the directory, named, never overwritten unless
 * asked. Every refusal is an `InvalidInput` naming the input, before any request: the loopback
 * server counts what reaches it.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { afterAll, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Auth, type ConnectorError, FileInput, FilePolicy, Files, ProviderClient, RateLimiter } from "../src/index.js"
import { Loopback } from "../src/testing.js"

const root = mkdtempSync(join(tmpdir(), "file-policy-"))
const files = join(root, "files")
mkdirSync(join(files, "downloads"), { recursive: true })
writeFileSync(join(files, "notes.txt"), "inside\n")
writeFileSync(join(root, "secret.txt"), "outside\n")
// A link inside the directory to a file outside it, and a directory linked the same way.
symlinkSync(join(root, "secret.txt"), join(files, "link.txt"))
symlinkSync(root, join(files, "up"))

// A loopback server that counts every request that reaches it.
let requests = 0
const server = createServer((_, res) => {
  requests++
  res.writeHead(200, { "content-type": "text/plain" }).end("served\n")
})
const origin = await Loopback.listen(server)
const port = Number(new URL(origin).port)
afterAll(async () => {
  await Loopback.close(server)
  rmSync(root, { recursive: true, force: true })
})

const http = Effect.runSync(Effect.provide(HttpClient.HttpClient, FetchHttpClient.layer))
const client = ProviderClient.makeWith(http, RateLimiter.make(), {
  baseUrl: origin,
  credentials: Auth.bearer(Redacted.make("tok_0123456789")),
  retry: { maxRetries: 0 }
})

const inside: FilePolicy.Policy = { files: { directory: files }, privateNetworks: false, allowedOrigins: [] }
const withPolicy = (policy: FilePolicy.Policy) => <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, FilePolicy.layer(policy))

const open = (file: FileInput.FileInput, policy: FilePolicy.Policy = inside) =>
  FileInput.open(client, file, { field: "file", maxBytes: 1024 }).pipe(
    Effect.flatMap((opened) => Effect.promise(() => opened.blob.text())),
    Effect.scoped,
    withPolicy(policy)
  )

/** The refusal's message, asserting it is an InvalidInput whose issue names `field`. */
const refusal = (field: string) => (error: ConnectorError.ConnectorError) => {
  expect(error._tag).toBe("InvalidInput")
  expect(error._tag === "InvalidInput" && error.issues[0]?.path).toBe(field)
  return error.message
}

describe("path inputs", () => {
  it.effect("a file inside the files directory is read, by a path relative to it or absolute", () =>
    Effect.gen(function*() {
      expect(yield* open({ path: "notes.txt" })).toBe("inside\n")
      expect(yield* open({ path: join(files, "notes.txt") })).toBe("inside\n")
      expect(yield* open({ path: "downloads/../notes.txt" })).toBe("inside\n")
    }))

  it.effect("a path outside it, /etc/shadow among them, is refused without being looked at", () =>
    Effect.gen(function*() {
      expect(refusal("file")(yield* Effect.flip(open({ path: "/etc/shadow" }))))
        .toBe(`file: /etc/shadow is outside the files directory ${files}`)
      expect(refusal("file")(yield* Effect.flip(open({ path: "../secret.txt" }))))
        .toBe(`file: ../secret.txt is outside the files directory ${files}`)
    }))

  it.effect("a symlink inside pointing outside is refused, its target resolved", () =>
    Effect.gen(function*() {
      expect(refusal("file")(yield* Effect.flip(open({ path: "link.txt" }))))
        .toBe(`file: link.txt is outside the files directory ${files} once its symlinks are resolved`)
      expect(refusal("file")(yield* Effect.flip(open({ path: "up/secret.txt" }))))
        .toBe(`file: up/secret.txt is outside the files directory ${files} once its symlinks are resolved`)
    }))

  it.effect("with no files directory, every path is refused; unrestricted (the default), any path is read", () =>
    Effect.gen(function*() {
      const nowhere: FilePolicy.Policy = { ...inside, files: "nowhere" }
      expect(refusal("file")(yield* Effect.flip(open({ path: "notes.txt" }, nowhere)))).toMatch(/^file: notes.txt is refused: no local file may be read here/)
      const read = yield* FileInput.open(client, { path: join(root, "secret.txt") }, { field: "file", maxBytes: 1024 }).pipe(
        Effect.flatMap((opened) => Effect.promise(() => opened.blob.text())),
        Effect.scoped
      )
      expect(read).toBe("outside\n")
    }))
})

describe("url inputs", () => {
  const refused: ReadonlyArray<readonly [string, string]> = [
    [`http://127.0.0.1:${port}/report.csv`, "127.0.0.1 is a loopback address"],
    [`http://2130706433:${port}/report.csv`, "127.0.0.1 is a loopback address"],
    ["http://2130706433/", "127.0.0.1 is a loopback address"],
    ["http://0x7f.1/", "127.0.0.1 is a loopback address"],
    ["http://[::1]/", "::1 is a loopback address"],
    ["http://[::ffff:127.0.0.1]/", "::ffff:7f00:1 is a loopback address"],
    ["http://169.254.169.254/latest/meta-data/", "169.254.169.254 is a link-local address"],
    ["http://10.0.0.1/", "10.0.0.1 is a private address"],
    ["http://192.168.1.1/", "192.168.1.1 is a private address"],
    ["http://[fd00::1]/", "fd00::1 is a unique-local address"],
    ["http://[fe80::1]/", "fe80::1 is a link-local address"],
    ["http://224.0.0.1/", "224.0.0.1 is a multicast address"],
    ["http://0.0.0.0/", "0.0.0.0 is an unspecified address"],
    [`http://localhost:${port}/report.csv`, "localhost resolves to "]
  ]

  it.effect("loopback, private, link-local, unique-local, multicast and unspecified addresses, in every notation, are refused before any request", () =>
    Effect.gen(function*() {
      const before = requests
      for (const [url, reason] of refused) {
        const message = refusal("file")(yield* Effect.flip(open({ url })))
        expect(message, url).toContain(`file: ${new URL(url).origin}${new URL(url).pathname} is refused: ${reason}`)
        expect(message, url).toContain("private networks are not allowed")
      }
      expect(requests).toBe(before)
    }))

  it.effect("allowed when the policy allows private networks, or for an allowed origin only", () =>
    Effect.gen(function*() {
      const before = requests
      expect(yield* open({ url: `http://2130706433:${port}/report.csv` }, { ...inside, privateNetworks: true })).toBe("served\n")
      expect(yield* open({ url: `${origin}/report.csv` }, { ...inside, allowedOrigins: [origin] })).toBe("served\n")
      expect(requests).toBe(before + 2)
      // Another port of the same address is not the allowed origin.
      const other = yield* Effect.flip(open({ url: `http://127.0.0.1:${port + 1}/x` }, { ...inside, allowedOrigins: [origin] }))
      expect(refusal("file")(other)).toContain("127.0.0.1 is a loopback address")
    }))

  it.effect("every external request (a presigned download) is held to the same rule", () =>
    Effect.gen(function*() {
      const before = requests
      const error = yield* Effect.flip(Files.downloadUrl(client, `${origin}/f?signature=s3cret`, { to: "downloads/f.txt" }).pipe(withPolicy(inside)))
      expect(refusal("url")(error)).toBe(`${origin}/f is refused: 127.0.0.1 is a loopback address, and private networks are not allowed`)
      expect(requests).toBe(before)
    }))
})

describe("download destinations", () => {
  const download = (to: string, options: { readonly overwrite?: boolean } = {}, policy: FilePolicy.Policy = inside) =>
    Files.download(client, { method: "GET", path: "/file" }, { to, field: "path", ...options }).pipe(withPolicy(policy))

  it.effect("a path with a .. segment (a name from data such as ../victim) is refused before any request", () =>
    Effect.gen(function*() {
      const before = requests
      for (const to of ["../victim", "downloads/../victim", "downloads/../../victim"]) {
        expect(refusal("path")(yield* Effect.flip(download(to))), to).toMatch(new RegExp(`^path: ${to.replace(/\./g, "\\.")} holds a "\\.\\." segment`))
      }
      expect(refusal("path")(yield* Effect.flip(download(join(root, "victim"))))).toBe(`path: ${join(root, "victim")} is outside the files directory ${files}`)
      expect(refusal("path")(yield* Effect.flip(download("up/victim")))).toBe(`path: up/victim is outside the files directory ${files} once its symlinks are resolved`)
      expect(requests).toBe(before)
      expect(readdirSync(root).sort()).toEqual(["files", "secret.txt"])
    }))

  it.effect("an existing file is not overwritten unless overwrite is set", () =>
    Effect.gen(function*() {
      writeFileSync(join(files, "downloads", "kept.txt"), "mine\n")
      const before = requests
      expect(refusal("path")(yield* Effect.flip(download("downloads/kept.txt"))))
        .toBe("path: downloads/kept.txt already exists, and overwriting it is off")
      expect(requests).toBe(before)
      expect(readFileSync(join(files, "downloads", "kept.txt"), "utf8")).toBe("mine\n")
      const replaced = yield* download("downloads/kept.txt", { overwrite: true })
      expect(replaced.path).toBe(join(files, "downloads", "kept.txt"))
      expect(readFileSync(join(files, "downloads", "kept.txt"), "utf8")).toBe("served\n")
    }))

  it.effect("a directory is never replaced, overwrite or not: refused before any request", () =>
    Effect.gen(function*() {
      const before = requests
      for (const overwrite of [false, true]) {
        expect(refusal("path")(yield* Effect.flip(download("downloads", { overwrite })))).toBe("path: downloads is a directory, not a file to write")
      }
      expect(requests).toBe(before)
    }))

  it.effect("a new file inside the directory is written, at its real path", () =>
    Effect.gen(function*() {
      const written = yield* download("downloads/new.txt")
      expect(written).toMatchObject({ path: join(files, "downloads", "new.txt"), size: 7 })
      expect(readFileSync(join(files, "downloads", "new.txt"), "utf8")).toBe("served\n")
      expect(readdirSync(join(files, "downloads")).filter((name) => name.endsWith(".part"))).toEqual([])
    }))

  it.effect("with no files directory, nothing is written", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(download("downloads/none.txt", {}, { ...inside, files: "nowhere" }))
      expect(refusal("path")(error)).toMatch(/^path: downloads\/none.txt is refused: no local file may be written here/)
    }))
})

describe("FilePolicy.addressRefusal", () => {
  it("names the kind of address, IPv4-mapped and NAT64 forms included; public addresses pass", () => {
    const policy = inside
    expect(FilePolicy.addressRefusal(policy, "::ffff:10.1.2.3", 80)).toBe("::ffff:10.1.2.3 is a private address, and private networks are not allowed")
    expect(FilePolicy.addressRefusal(policy, "64:ff9b::a9fe:a9fe", 80)).toContain("is a link-local address")
    expect(FilePolicy.addressRefusal(policy, "2002:7f00:1::1", 80)).toContain("is a loopback address")
    expect(FilePolicy.addressRefusal(policy, "93.184.215.14", 443)).toBeUndefined()
    expect(FilePolicy.addressRefusal(policy, "2606:4700::6810:84e5", 443)).toBeUndefined()
    expect(FilePolicy.addressRefusal({ ...policy, privateNetworks: true }, "127.0.0.1", 80)).toBeUndefined()
  })
})
