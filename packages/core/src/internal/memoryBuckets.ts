/**
 * The memory store's buckets: `RateLimiter.takeAt` and `releaseAt`'s algorithm over a shape
 * that costs O(1) a call where times come in order (as a clock gives them), O(log n) otherwise,
 * instead of O(limit). The arrays those functions read (every token of a bucket, copied on each
 * take and release) are what a database row holds; in memory a bucket of 50,000 tokens a second
 * made every call scan and copy 50,000 of them.
 *
 * A bucket here is: the count of tokens never taken, the free tokens' times, and the held
 * tokens, by holder where a holder names them (a permit taken in the caller's step keeps its
 * tokens itself), ordered by `latest` (entries of released tokens are dropped when they come
 * first). The starts it gives are the algorithm's: a bucket's earliest token back is one never
 * taken, else the earliest of the free tokens and of the held ones whose holder is presumed gone
 * (`latest` passed); when every token is held, the retry is the earliest held token's.
 */

/** A token taken, until it is given back. */
export interface Held {
  readonly bucket: MemoryBucket
  readonly holder: string | undefined
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

  values(): ReadonlyArray<A> {
    return this.items
  }
}

/**
 * A min-queue of items keyed by a time, for times that mostly come in order: an item no earlier
 * than the last one queued in order joins a list kept in order (O(1)), any other a heap. The
 * least is the first of either. The list's slots are cleared as items leave (`clears`), so that
 * a list that outlived a young-generation collection keeps no item it gave up alive.
 */
class TimeQueue<A> {
  private ordered: Array<A> = []
  private first = 0
  private readonly heap: Heap<A>

  constructor(private readonly key: (item: A) => number, private readonly clears: boolean) {
    this.heap = new Heap((a, b) => key(a) < key(b))
  }

  get size(): number {
    return this.ordered.length - this.first + this.heap.size
  }

  push(item: A): void {
    const ordered = this.ordered
    if (ordered.length === this.first || this.key(item) >= this.key(ordered[ordered.length - 1]!)) ordered.push(item)
    else this.heap.push(item)
  }

  peek(): A | undefined {
    const inOrder = this.first < this.ordered.length ? this.ordered[this.first] : undefined
    const top = this.heap.peek()
    if (inOrder === undefined) return top
    return top !== undefined && this.key(top) < this.key(inOrder) ? top : inOrder
  }

  pop(): A | undefined {
    const least = this.peek()
    if (least === undefined) return undefined
    if (least === this.heap.peek()) return this.heap.pop()
    if (this.clears) (this.ordered as Array<A | undefined>)[this.first] = undefined
    this.first++
    if (this.first === this.ordered.length) {
      this.ordered.length = 0
      this.first = 0
    } else if (this.first >= 1024 && this.first * 2 >= this.ordered.length) {
      // The part given up, dropped in place: the array keeps its backing store.
      this.ordered.copyWithin(0, this.first)
      this.ordered.length -= this.first
      this.first = 0
    }
    return least
  }

  /** The items, in no particular order. */
  values(): Array<A> {
    return this.ordered.slice(this.first).concat(this.heap.values())
  }
}

/** One bucket's tokens. */
export class MemoryBucket {
  private untaken: number
  private readonly free = new TimeQueue<number>((time) => time, false)
  private readonly held = new Map<string, Array<Held>>()
  private heldCount = 0
  private byLatest = new TimeQueue<Held>(latestOf, true)

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
   * Takes the earliest token (as `earliest` found it, at `now`) from `start`, for `holder`
   * (released by it), or for no one (released through the token returned): once per `earliest`
   * that found one. With none back, a defect: holding one would make a token.
   */
  take(now: number, holder: string | undefined, start: number, latest: number): Held {
    if (this.untaken > 0) this.untaken--
    else {
      const free = this.free.peek() ?? Number.POSITIVE_INFINITY
      const held = this.earliestHeld()
      // A gone holder's token before a free one of the same time (either gives the same start).
      if (held !== undefined && held.latest <= now && held.latest <= free) this.drop(held)
      else if (this.free.pop() === undefined) throw new Error(`a rate-limit bucket of ${this.limit} has no token to take`)
    }
    this.heldCount++
    const token: Held = { bucket: this, holder, start, latest, released: false }
    if (holder !== undefined) {
      const tokens = this.held.get(holder)
      if (tokens === undefined) this.held.set(holder, [token])
      else tokens.push(token)
    }
    this.byLatest.push(token)
    return token
  }

  private drop(token: Held): void {
    token.released = true
    this.heldCount--
    if (token.holder === undefined) return
    const tokens = this.held.get(token.holder)!
    if (tokens.length === 1) this.held.delete(token.holder)
    else tokens.splice(tokens.indexOf(token), 1)
  }

  /** Gives `holder`'s tokens back: free from `answeredAt`'s interval (and margin) later, or at their start when never sent. */
  release(holder: string, answeredAt: number | undefined, marginMillis: number): void {
    const tokens = this.held.get(holder)
    if (tokens === undefined) return
    this.held.delete(holder)
    for (const token of tokens) this.freed(token, answeredAt, marginMillis)
    this.compact()
  }

  /** Gives a token taken for no one back, as `release` does (a token already back, or reclaimed from a gone holder, stays as it is). */
  releaseToken(token: Held, answeredAt: number | undefined, marginMillis: number): void {
    if (token.released) return
    this.freed(token, answeredAt, marginMillis)
    this.compact()
  }

  private freed(token: Held, answeredAt: number | undefined, marginMillis: number): void {
    token.released = true
    this.heldCount--
    this.free.push(answeredAt === undefined ? token.start : answeredAt + this.intervalMillis + marginMillis)
  }

  // Released tokens leave the queue when they come first; behind a long-held one they would
  // pile up, so the queue is rebuilt from the held tokens once it is mostly released ones.
  private compact(): void {
    if (this.byLatest.size <= 2 * this.heldCount + 16) return
    const rebuilt = new TimeQueue<Held>(latestOf, true)
    for (const token of this.byLatest.values().filter((token) => !token.released).sort((a, b) => a.latest - b.latest)) rebuilt.push(token)
    this.byLatest = rebuilt
  }
}

const latestOf = (token: Held) => token.latest
