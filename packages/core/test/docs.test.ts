/**
 * The API pages, docs/, are what @effect/docgen makes of core's doc comments: rendered again from
 * the sources, they must equal the checked-in ones, so an export added, changed or documented
 * differently without `pnpm docgen` fails here (as does an export docgen rejects: no description, no
 * `@since`, an `@example` that does not type-check or run).
 */
import { describe, expect, it } from "@effect/vitest"
import { readPages, renderPages } from "../../../tooling/scripts/core-docs.mjs"

describe("docs/", () => {
  // docgen type-checks the whole of src in a process of its own: about a minute beside the other
  // packages' tests; the limit is a stall bound five times that, not a speed expectation.
  it("is what docgen makes of the doc comments (after changing an export or its comment: pnpm docgen)", async () => {
    const rendered = await renderPages()
    const checkedIn = readPages()
    expect([...checkedIn.keys()].sort()).toEqual([...rendered.keys()].sort())
    for (const [path, page] of rendered) expect(checkedIn.get(path), `docs/${path}`).toBe(page)
  }, 400_000)
})
