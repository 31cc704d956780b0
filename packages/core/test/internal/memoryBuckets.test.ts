import { describe, expect, it } from "@effect/vitest"
import { MemoryBucket } from "../../src/internal/memoryBuckets.js"

describe("internal/memoryBuckets", () => {
  it("takes only a token `earliest` found: with none back, a take is a defect, not a token made", () => {
    const bucket = new MemoryBucket(1, 1_000)
    expect(bucket.earliest(0)).toBe(Number.NEGATIVE_INFINITY)
    bucket.take(0, "a", 0, 61_005)
    expect(bucket.earliest(0)).toBe(Number.POSITIVE_INFINITY)
    expect(() => bucket.take(0, "b", 0, 61_005)).toThrow("a rate-limit bucket of 1 has no token to take")
    // Nothing was held for the refused take: `a`'s token is the only one back, one interval after its answer.
    bucket.release("a", 10, 5)
    bucket.release("b", 10, 5)
    expect(bucket.earliest(10)).toBe(1_015)
    bucket.take(10, "c", 1_015, 62_020)
    expect(bucket.earliest(10)).toBe(Number.POSITIVE_INFINITY)
  })
})
