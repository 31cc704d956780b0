/**
 * What a definition builds on its first use rather than when it is defined: its decoders and
 * encoders, its properties' Schemas. A package defines dozens of actions at import; a command
 * or a run uses a few of them. A count of the parts built lets the tests see that importing a
 * package builds none (`@x/core/testing`'s `Laziness`).
 */

let built = 0

/** How many parts `lazy` has built in this process. */
export const builtCount = (): number => built

/** `build`'s result, built at the first call and kept. */
export const lazy = <A>(build: () => A): () => A => {
  let done = false
  let value: A
  return () => {
    if (!done) {
      value = build()
      done = true
      built++
    }
    return value
  }
}
