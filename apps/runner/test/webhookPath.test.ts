import { describe, expect, it } from "vitest"
import * as WebhookPath from "../src/serve/internal/webhookPath.js"

describe("WebhookPath.canonical", () => {
  it("a path already in the one form is itself, without a trailing slash", () => {
    expect(WebhookPath.canonical("/hooks/card-moved")).toBe("/hooks/card-moved")
    expect(WebhookPath.canonical("/hooks/card-moved/")).toBe("/hooks/card-moved")
    expect(WebhookPath.canonical("/hooks/A_b.c~d!*'()")).toBe("/hooks/A_b.c~d!*'()")
    expect(WebhookPath.canonical("/")).toBe("/")
  })

  it("any other form of a path is the same path: percent-encoding either way, a query or fragment dropped", () => {
    expect(WebhookPath.canonical("/hooks/my%20hook")).toBe("/hooks/my%20hook")
    expect(WebhookPath.canonical("/hooks/my hook")).toBe("/hooks/my%20hook")
    expect(WebhookPath.canonical("/hooks/%c3%bc/")).toBe("/hooks/%C3%BC")
    expect(WebhookPath.canonical("/hooks/ü")).toBe("/hooks/%C3%BC")
    expect(WebhookPath.canonical("/hooks/card-moved?x=1")).toBe("/hooks/card-moved")
    expect(WebhookPath.canonical("/hooks/card-moved/#top")).toBe("/hooks/card-moved")
    // Case is kept; a segment that does not decode is kept as it came.
    expect(WebhookPath.canonical("/hooks/A")).not.toBe(WebhookPath.canonical("/hooks/a"))
    expect(WebhookPath.canonical("/hooks/%zz")).toBe("/hooks/%zz")
  })

  it("the fast path gives what the whole walk gives, for every character a path may hold", () => {
    // A "#" sends any path through the walk (and is dropped with what follows it there).
    const walked = (path: string) => WebhookPath.canonical(`${path}#`)
    for (let code = 0x20; code < 0x7f; code++) {
      const c = String.fromCharCode(code)
      for (const path of [`/hooks/a${c}b`, `/hooks/${c}`, `/hooks/a${c}/`, `/${c}${c}/x`, `/hooks/${c}/./..//`]) {
        expect(WebhookPath.canonical(path)).toBe(walked(path))
      }
    }
  })
})
