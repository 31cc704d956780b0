/**
 * The memory store's buckets: `RateLimiter.takeAt` and `releaseAt`'s algorithm over a shape
 * that costs O(log n) a call instead of O(limit). The arrays those functions read (every
 * token of a bucket, copied on each take and release) are what a database row holds; in
 * memory a bucket of 50,000 tokens a second made every call scan and copy 50,000 of them.
 *
 * A bucket here is: the count of tokens never taken, a min-heap of the free tokens' times, and
 * the held tokens by holder, with a min-heap of them by `latest` (entries of released tokens
 * are dropped when they reach the top). The starts it gives are the algorithm's: a bucket's
 * earliest token back is one never taken, else the earliest of the free tokens and of the held
 * ones whose holder is presumed gone (`latest` passed); when every token is held, the retry is
 * the earliest held token's.
 */

interface Held {
  readonly holder: string
  readonly start: number
  readonly latest: number
  released: boolean
}

/** A binary min-heap over `before`. */
class Heap<A> {
  private readonly items: Array<A> = []
  constructor(private readonly before: (a: A, b: A) => boolean) {}

  get size(): number {
    return this.items.length
  }

  peek(): A | undefined {
    return this.items[0]
  }

  push(item: A): void {
    const items = this.items
    let i = items.length
    items.push(item)
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (!this.before(item, items[parent]!)) break
      items[i] = items[parent]!
      i = parent
    }
    items[i] = item
  }

  pop(): A | undefined {
    const items = this.items
    const top = items[0]
    const last = items.pop()
    if (items.length === 0 || last === undefined) return top
    let i = 0
    for (;;) {
      const left = 2 * i + 1
      if (left >= items.length) break
      const right = left + 1
      const child = right < items.length && this.before(items[right]!, items[left]!) ? right : left
      if (!this.before(items[child]!, last)) break
      items[i] = items[child]!
      i = child
    }
    items[i] = last
    return top
  }
}

/** One bucket's tokens. */
export class MemoryBucket {
  private untaken: number
  private readonly free = new Heap<number>((a, b) => a < b)
  private readonly held = new Map<string, Array<Held>>()
  private heldCount = 0
  private byLatest = new Heap<Held>((a, b) => a.latest < b.latest)

  constructor(readonly limit: number, readonly intervalMillis: number) {
    this.untaken = limit
  }

  /** The held token with the earliest `latest` (released ones dropped on the way). */
  private earliestHeld(): Held | undefined {
    let top = this.byLatest.peek()
    while (top !== undefined && top.released) {
      this.byLatest.pop()
      top = this.byLatest.peek()
    }
    return top
  }

  /**
   * When this bucket's earliest token is back at `now` (`-Infinity`: one never taken), or
   * `Infinity` when every token is held by a request in flight.
   */
  earliest(now: number): number {
    if (this.untaken > 0) return Number.NEGATIVE_INFINITY
    const free = this.free.peek() ?? Number.POSITIVE_INFINITY
    const held = this.earliestHeld()
    // A held token is back only once its holder is presumed gone.
    const gone = held !== undefined && held.latest <= now ? held.latest : Number.POSITIVE_INFINITY
    return Math.min(free, gone)
  }

  /** With every token held: when to ask again (the earliest held token's interval after its start or now, or its `latest`). */
  retryMillis(now: number): number {
    const held = this.earliestHeld()
    if (held === undefined) return Number.POSITIVE_INFINITY
    // Both terms grow with a token's start, so the earliest held token gives the least.
    return Math.min(Math.max(held.start, now) + this.intervalMillis - now, held.latest - now)
  }

  /**
   * Takes the earliest token (as `earliest` found it, at `now`) for `holder` from `start`: once
   * per `earliest` that found one. With none back, a defect: holding one would make a token.
   */
  take(now: number, holder: string, start: number, latest: number): void {
    if (this.untaken > 0) this.untaken--
    else {
      const free = this.free.peek() ?? Number.POSITIVE_INFINITY
      const held = this.earliestHeld()
      // A gone holder's token before a free one of the same time (either gives the same start).
      if (held !== undefined && held.latest <= now && held.latest <= free) this.drop(held)
      else if (this.free.pop() === undefined) throw new Error(`a rate-limit bucket of ${this.limit} has no token to take`)
    }
    this.heldCount++
    const token: Held = { holder, start, latest, released: false }
    const tokens = this.held.get(holder)
    if (tokens === undefined) this.held.set(holder, [token])
    else tokens.push(token)
    this.byLatest.push(token)
  }

  private drop(token: Held): void {
    token.released = true
    this.heldCount--
    const tokens = this.held.get(token.holder)!
    if (tokens.length === 1) this.held.delete(token.holder)
    else tokens.splice(tokens.indexOf(token), 1)
  }

  /** Gives `holder`'s tokens back: free from `answeredAt`'s interval (and margin) later, or at their start when never sent. */
  release(holder: string, answeredAt: number | undefined, marginMillis: number): void {
    const tokens = this.held.get(holder)
    if (tokens === undefined) return
    this.held.delete(holder)
    for (const token of tokens) {
      token.released = true
      this.heldCount--
      this.free.push(answeredAt === undefined ? token.start : answeredAt + this.intervalMillis + marginMillis)
    }
    // Released tokens leave the heap when they reach its top; behind a long-held one they would
    // pile up, so the heap is rebuilt from the held tokens once it is mostly released ones.
    if (this.byLatest.size > 2 * this.heldCount + 16) {
      const rebuilt = new Heap<Held>((a, b) => a.latest < b.latest)
      for (const held of this.held.values()) for (const token of held) rebuilt.push(token)
      this.byLatest = rebuilt
    }
  }
}
