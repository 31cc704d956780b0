/** The simulator's workspaces and their presigned storage, on the wire: paging, errors, S3's refusals. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Simulator from "../src/testing/simulator.js"

let sim: Simulator.Simulator
let skew = 0
beforeAll(async () => {
  sim = await Simulator.start({ now: () => Date.now() + skew })
})
afterAll(() => sim.close())

const api = async (method: string, path: string, body?: unknown, key = sim.apiKey) => {
  const response = await fetch(`${sim.baseUrl}${path}`, {
    method,
    headers: { "x-browser-use-api-key": key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) as any }
}
const createWorkspace = async (name?: string) => (await api("POST", "/workspaces", name === undefined ? undefined : { name })).body as { id: string }
const put = (url: string, body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string>) =>
  fetch(url, { method: "PUT", headers, body }).then(async (r) => ({ status: r.status, text: await r.text(), etag: r.headers.get("etag") }))
/** Uploads `content` at `name` through the presigned flow; the upload URL. */
const upload = async (workspaceId: string, name: string, content: string, contentType = "text/plain", prefix = "") => {
  const size = Buffer.byteLength(content)
  const answer = await api("POST", `/workspaces/${workspaceId}/files/upload${prefix === "" ? "" : `?prefix=${prefix}`}`, { files: [{ name, contentType, size }] })
  expect(answer.status).toBe(200)
  const url = answer.body.files[0].uploadUrl as string
  expect((await put(url, content, { "content-type": contentType })).status).toBe(200)
  return url
}

describe("simulator: workspaces", () => {
  it("create (201, name optional), get, rename, list newest first by pageNumber/pageSize, delete (204) then 404", async () => {
    const own = await Simulator.start()
    try {
      const call = (method: string, path: string, body?: unknown) =>
        fetch(`${own.baseUrl}${path}`, { method, headers: { "x-browser-use-api-key": own.apiKey, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const created = await call("POST", "/workspaces", { name: "Research" })
      expect(created.status).toBe(201)
      const first = await created.json() as Record<string, unknown>
      expect(first).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: "Research", createdAt: expect.any(String), updatedAt: expect.any(String) })
      const unnamed = await (await call("POST", "/workspaces")).json() as { id: string; name: null }
      expect(unnamed.name).toBeNull()
      for (let i = 0; i < 3; i++) await call("POST", "/workspaces", { name: `W${i}` })
      expect(await (await call("GET", `/workspaces/${first["id"]}`)).json()).toEqual(first)
      const renamed = await (await call("PATCH", `/workspaces/${first["id"]}`, { name: "Renamed" })).json() as { name: string }
      expect(renamed.name).toBe("Renamed")

      const page2 = await (await call("GET", "/workspaces?pageSize=2&pageNumber=2")).json() as { items: Array<{ name: string | null }>; totalItems: number; pageNumber: number; pageSize: number }
      expect(page2).toMatchObject({ totalItems: 5, pageNumber: 2, pageSize: 2 })
      const all = await (await call("GET", "/workspaces?pageSize=100")).json() as { items: Array<{ id: string; createdAt: string }> }
      expect(all.items).toHaveLength(5)
      expect(page2.items).toEqual(all.items.slice(2, 4))
      expect([...all.items].sort((a, b) => b.createdAt.localeCompare(a.createdAt)).map((w) => w.createdAt)).toEqual(all.items.map((w) => w.createdAt))
      expect((await (await call("GET", "/workspaces")).json() as { pageSize: number }).pageSize).toBe(10)

      const deleted = await call("DELETE", `/workspaces/${first["id"]}`)
      expect(deleted.status).toBe(204)
      expect(await deleted.text()).toBe("")
      const gone = await call("GET", `/workspaces/${first["id"]}`)
      expect(gone.status).toBe(404)
      expect(await gone.json()).toEqual({ detail: "Workspace not found" })
    } finally {
      await own.close()
    }
  })

  it("FastAPI's errors: 401 without the key, 422 for a bad id, page size, name or upload body, 404 for an unknown workspace", async () => {
    expect((await api("GET", "/workspaces", undefined, "bu_wrong")).status).toBe(401)
    expect(await api("GET", "/workspaces/not-a-uuid")).toEqual({ status: 422, body: { detail: [{ loc: ["path", "workspace_id"], msg: "Input should be a valid UUID", type: "uuid_parsing" }] } })
    expect(await api("GET", "/workspaces?pageSize=101")).toEqual({ status: 422, body: { detail: [{ loc: ["query", "pageSize"], msg: "Input should be less than or equal to 100", type: "less_than_equal" }] } })
    expect((await api("POST", "/workspaces", { name: "x".repeat(101) })).body.detail[0]).toMatchObject({ loc: ["body", "name"], type: "string_too_long" })
    const unknown = "00000000-0000-4000-8000-000000000000"
    expect(await api("GET", `/workspaces/${unknown}/files`)).toEqual({ status: 404, body: { detail: "Workspace not found" } })
    const { id } = await createWorkspace("Errors")
    expect((await api("POST", `/workspaces/${id}/files/upload`, { files: [] })).body.detail[0]).toMatchObject({ loc: ["body", "files"], type: "too_short" })
    expect((await api("POST", `/workspaces/${id}/files/upload`, { files: [{ name: "a.txt" }, { name: "", size: 0 }] })).body.detail).toEqual([
      { loc: ["body", "files", 0, "size"], msg: "Field required for workspace uploads", type: "missing" },
      { loc: ["body", "files", 1, "name"], msg: "String should have at least 1 character", type: "string_too_short" },
      { loc: ["body", "files", 1, "size"], msg: "Input should be greater than or equal to 1", type: "greater_than_equal" }
    ])
    expect((await api("GET", `/workspaces/${id}/files?includeUrls=maybe`)).body.detail[0]).toMatchObject({ loc: ["query", "includeUrls"], type: "bool_parsing" })
    expect((await api("DELETE", `/workspaces/${id}/files`)).body.detail[0]).toMatchObject({ loc: ["query", "path"], type: "missing" })
    expect(await api("DELETE", `/workspaces/${id}/files?path=none.txt`)).toEqual({ status: 404, body: { detail: "File not found" } })
  })
})

describe("simulator: workspace files", () => {
  it("lists in path order by limit and cursor (nextCursor, hasMore), under a prefix, shallow with folders", async () => {
    const { id } = await createWorkspace("Listing")
    for (const name of ["e.txt", "a.txt", "c.txt", "b.txt", "d.txt"]) await upload(id, name, `content of ${name}`)
    await upload(id, "report.csv", "x,y\n1,2\n", "text/csv", "out/")
    const paths: Array<string> = []
    let cursor: string | null = null
    let pages = 0
    do {
      const page: any = (await api("GET", `/workspaces/${id}/files?limit=2${cursor === null ? "" : `&cursor=${cursor}`}`)).body
      pages++
      paths.push(...page.files.map((f: { path: string }) => f.path))
      expect(page.hasMore).toBe(page.nextCursor !== null)
      for (const file of page.files) expect(file.url).toBeNull()
      cursor = page.nextCursor
    } while (cursor !== null)
    expect(pages).toBe(3)
    expect(paths).toEqual(["a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "out/report.csv"])

    const shallow = (await api("GET", `/workspaces/${id}/files?shallow=true`)).body
    expect(shallow.folders).toEqual(["out"])
    expect(shallow.files.map((f: { path: string }) => f.path)).toEqual(["a.txt", "b.txt", "c.txt", "d.txt", "e.txt"])
    const under = (await api("GET", `/workspaces/${id}/files?prefix=out/`)).body
    expect(under).toEqual({
      files: [{ path: "out/report.csv", size: 8, lastModified: expect.any(String), url: null }],
      folders: [],
      nextCursor: null,
      hasMore: false
    })
    expect((await api("GET", `/workspaces/${id}/files?cursor=not%20a%20cursor`)).status).toBe(422)

    expect((await api("DELETE", `/workspaces/${id}/files?path=a.txt`)).status).toBe(204)
    expect((await api("GET", `/workspaces/${id}/files?limit=1`)).body.files[0].path).toBe("b.txt")
    // Deleting the workspace deletes its files.
    await api("DELETE", `/workspaces/${id}`)
    expect([...sim.storage.objects.keys()].some((key) => key.startsWith(`workspaces/${id}/`))).toBe(false)
  })

  it("a presigned upload stores the bytes with no API key; includeUrls gives a 60 s download URL for the same bytes", async () => {
    const { id } = await createWorkspace("Round trip")
    const answer = await api("POST", `/workspaces/${id}/files/upload?prefix=uploads`, { files: [{ name: "data.bin", contentType: "application/octet-stream", size: 4 }] })
    expect(answer.body.files[0]).toEqual({ name: "data.bin", uploadUrl: expect.stringContaining("X-Amz-Signature="), path: "uploads/data.bin" })
    const bytes = new Uint8Array([0, 255, 10, 13])
    const stored = await put(answer.body.files[0].uploadUrl, bytes, { "content-type": "application/octet-stream" })
    expect(stored).toMatchObject({ status: 200, etag: expect.stringMatching(/^"[0-9a-f]{32}"$/) })
    expect(sim.storage.requests.at(-1)!.headers["x-browser-use-api-key"]).toBeUndefined()

    const listed = (await api("GET", `/workspaces/${id}/files?includeUrls=true`)).body.files[0]
    expect(listed).toMatchObject({ path: "uploads/data.bin", size: 4 })
    const url = new URL(listed.url)
    expect(url.searchParams.get("X-Amz-Expires")).toBe("60")
    const download = await fetch(listed.url)
    expect(download.status).toBe(200)
    expect(download.headers.get("content-type")).toBe("application/octet-stream")
    expect(new Uint8Array(await download.arrayBuffer())).toEqual(bytes)
  })

  it("S3's refusals: a forged, tampered or expired URL is 403 with an XML error; a wrong Content-Type or length is SignatureDoesNotMatch; no length is 411", async () => {
    const { id } = await createWorkspace("Refusals")
    const answer = await api("POST", `/workspaces/${id}/files/upload`, { files: [{ name: "note.txt", contentType: "text/plain", size: 5 }] })
    const uploadUrl = answer.body.files[0].uploadUrl as string
    const code = (text: string) => /<Code>([^<]+)<\/Code>/.exec(text)?.[1]

    const forged = new URL(uploadUrl)
    forged.searchParams.set("X-Amz-Signature", "0".repeat(64))
    const refused = await put(forged.href, "hello", { "content-type": "text/plain" })
    expect(refused.status).toBe(403)
    expect(refused.text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>SignatureDoesNotMatch<\/Code>/)
    const elsewhere = new URL(uploadUrl.replace("note.txt", "other.txt"))
    expect(code((await put(elsewhere.href, "hello", { "content-type": "text/plain" })).text)).toBe("SignatureDoesNotMatch")
    const longer = new URL(uploadUrl)
    longer.searchParams.set("X-Amz-Expires", "604800")
    expect(code((await put(longer.href, "hello", { "content-type": "text/plain" })).text)).toBe("SignatureDoesNotMatch")

    // A body other than the declared 5 bytes, or of another type.
    expect(await put(uploadUrl, "hello world", { "content-type": "text/plain" })).toMatchObject({ status: 403, text: expect.stringContaining("<Code>SignatureDoesNotMatch</Code>") })
    expect((await put(uploadUrl, "hell", { "content-type": "text/plain" })).status).toBe(403)
    expect((await put(uploadUrl, "hello", { "content-type": "text/html" })).status).toBe(403)
    const chunked = await fetch(uploadUrl, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body: new ReadableStream({ start: (c) => { c.enqueue(new TextEncoder().encode("hello")); c.close() } }),
      duplex: "half"
    } as RequestInit)
    expect(chunked.status).toBe(411)
    expect(code(await chunked.text())).toBe("MissingContentLength")
    expect(sim.storage.objects.has(`workspaces/${id}/note.txt`)).toBe(false)

    // The right request stores it; its download URL expires after 60 s.
    expect((await put(uploadUrl, "hello", { "content-type": "text/plain" })).status).toBe(200)
    const listed = (await api("GET", `/workspaces/${id}/files?includeUrls=1`)).body.files[0]
    expect(await (await fetch(listed.url)).text()).toBe("hello")
    skew = 61_000
    try {
      const expired = await fetch(listed.url)
      expect(expired.status).toBe(403)
      const text = await expired.text()
      expect(code(text)).toBe("AccessDenied")
      expect(text).toContain("<Message>Request has expired</Message><X-Amz-Expires>60</X-Amz-Expires>")
      // The upload URL lasts 5 minutes: still good at 61 s, expired at 301 s.
      expect((await put(uploadUrl, "HELLO", { "content-type": "text/plain" })).status).toBe(200)
      skew = 301_000
      expect(code((await put(uploadUrl, "hello", { "content-type": "text/plain" })).text)).toBe("AccessDenied")
    } finally {
      skew = 0
    }
    // A URL of a file deleted since: 404 NoSuchKey.
    const fresh = (await api("GET", `/workspaces/${id}/files?includeUrls=true`)).body.files[0].url as string
    await api("DELETE", `/workspaces/${id}/files?path=note.txt`)
    const missing = await fetch(fresh)
    expect(missing.status).toBe(404)
    expect(code(await missing.text())).toBe("NoSuchKey")
  })
})
