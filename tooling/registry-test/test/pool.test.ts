import { describe, expect, it } from "vitest"
import { makePool, mapInPool } from "../src/pool.js"

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 5))

describe("the pool that shares the cores", () => {
  it("runs at most its size at once, hands each freed slot to the next, and keeps the order", async () => {
    const pool = makePool(2)
    let running = 0
    let most = 0
    const results = await mapInPool(pool, [1, 2, 3, 4, 5, 6], async (n) => {
      running++
      most = Math.max(most, running)
      await tick()
      running--
      return n * 10
    })
    expect(results).toEqual([10, 20, 30, 40, 50, 60])
    expect(most).toBe(2)
  })

  it("waits for every task before it rejects, so none outlives a failure", async () => {
    const pool = makePool(2)
    const finished: Array<number> = []
    await expect(
      mapInPool(pool, [1, 2, 3, 4], async (n) => {
        await tick()
        if (n === 1) throw new Error("one failed")
        finished.push(n)
      })
    ).rejects.toThrow("one failed")
    expect(finished.sort()).toEqual([2, 3, 4])
  })
})
