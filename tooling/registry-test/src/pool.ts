/**
 * A limit on how many tasks run at once: the machine has 2 cores, and installs and type-checks
 * are CPU-bound, so running everything at once would only make each slower.
 */
export const makePool = (size: number) => {
  let running = 0
  const waiting: Array<() => void> = []
  // A finished task hands its slot straight to the next waiting one, so none can jump the queue.
  const acquire = (): Promise<void> | undefined => {
    if (running < size) {
      running++
      return undefined
    }
    return new Promise<void>((resolve) => waiting.push(resolve))
  }
  const release = () => {
    const next = waiting.shift()
    if (next === undefined) running--
    else next()
  }
  return async <A>(task: () => Promise<A>): Promise<A> => {
    await acquire()
    try {
      return await task()
    } finally {
      release()
    }
  }
}

export type Pool = ReturnType<typeof makePool>

/**
 * Maps every item through the pool, keeping the order. It waits for every task to settle, even
 * when one fails, so no child process outlives the test's clean-up.
 */
export const mapInPool = async <A, B>(pool: Pool, items: ReadonlyArray<A>, f: (item: A) => Promise<B>) => {
  const settled = await Promise.allSettled(items.map((item) => pool(() => f(item))))
  const failures = settled.flatMap((result) => (result.status === "rejected" ? [result.reason as unknown] : []))
  if (failures.length === 1) throw failures[0]
  if (failures.length > 1) throw new AggregateError(failures, failures.map(String).join("\n\n"))
  return settled.map((result) => (result as PromiseFulfilledResult<B>).value)
}
