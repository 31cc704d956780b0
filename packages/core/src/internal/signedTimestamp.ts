/** What every timestamped signature scheme checks before it computes a signature. */
import * as Duration from "effect/Duration"
import * as Either from "effect/Either"

/**
 * The signature and timestamp of a delivery, or why it is refused before its signature is
 * computed: either is missing, or the timestamp (`digits`, in units of `unitMs`) is outside
 * `tolerance` (default 5 minutes) of now.
 */
export const check = (
  now: number,
  options: { readonly timestamp: string | undefined; readonly signature: string | undefined; readonly tolerance?: Duration.DurationInput },
  unitMs: number,
  digits: RegExp
): Either.Either<{ readonly timestamp: string; readonly signature: string }, string> => {
  const { signature, timestamp } = options
  if (signature === undefined || signature === "" || timestamp === undefined || timestamp === "") {
    return Either.left("the delivery has no signature or timestamp")
  }
  const tolerance = Duration.toMillis(Duration.decode(options.tolerance ?? "5 minutes"))
  return !digits.test(timestamp) || Math.abs(now - Number(timestamp) * unitMs) > tolerance
    ? Either.left("the delivery's timestamp is outside the tolerance window")
    : Either.right({ timestamp, signature })
}
