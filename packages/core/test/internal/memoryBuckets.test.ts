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

  it("gives back a token taken for no holder through the token, once, and not after its holder was presumed gone", () => {
    const bucket = new MemoryBucket(2, 1_000)
    const a = bucket.take(0, undefined, 0, 100)
    const b = bucket.take(0, undefined, 0, 61_005)
    expect(bucket.earliest(50)).toBe(Number.POSITIVE_INFINITY)
    // Past `a`'s latest its holder is presumed gone: its token is back, and taken again.
    expect(bucket.earliest(100)).toBe(100)
    const c = bucket.take(100, "c", 100, 61_105)
    // `a` answering now gives nothing back: its token is `c`'s.
    bucket.releaseToken(a, 120, 5)
    expect(bucket.earliest(120)).toBe(Number.POSITIVE_INFINITY)
    bucket.releaseToken(b, 130, 5)
    bucket.releaseToken(b, 140, 5)
    expect(bucket.earliest(140)).toBe(1_135)
    bucket.take(140, undefined, 1_135, 62_140)
    expect(bucket.earliest(140)).toBe(Number.POSITIVE_INFINITY)
    expect(c.released).toBe(false)
  })

  it("finds the earliest token back whatever order the times come in", () => {
    // Tokens answered in order, one never sent (back at its start, before the others), one
    // answered on a clock that stepped back: the earliest is always the least of them.
    const bucket = new MemoryBucket(2_000, 1_000)
    const tokens = Array.from({ length: 2_000 }, (_, i) => bucket.take(i, undefined, i, i + 61_005))
    const answeredAt = tokens.map((_, i) => (i === 700 ? undefined : i === 1_500 ? 300 : 10_000 + i))
    tokens.forEach((token, i) => bucket.releaseToken(token, answeredAt[i], 5))
    const backAt = answeredAt.map((at, i) => (at === undefined ? i : at + 1_005)).sort((x, y) => x - y)
    for (const expected of backAt) {
      expect(bucket.earliest(20_000)).toBe(expected)
      bucket.take(20_000, undefined, 20_000, 81_005)
    }
    expect(bucket.earliest(20_000)).toBe(Number.POSITIVE_INFINITY)
  })
})
