/**
 * Repeatable `--input name=value` and `--param name=value` options, read as written: the
 * value is everything after the first `=`, kept as it is (spaces, `=` and `${…}` included), and
 * may be empty (`--input note=` is the empty string, as `env` and `docker -e` read it); the
 * last of one name wins. @effect/cli's key/value options trimmed values and refused an empty
 * one with a message about default values.
 *
 * @internal
 */
import * as Either from "effect/Either"

/** The values by name, or what is wrong with one (naming the option and what was given). */
export const parse = (option: string, given: ReadonlyArray<string>): Either.Either<ReadonlyMap<string, string>, string> => {
  const values = new Map<string, string>()
  for (const text of given) {
    const at = text.indexOf("=")
    const name = at < 0 ? text : text.slice(0, at)
    if (at < 0 || name.trim() === "") {
      return Either.left(`--${option} ${text}: expected name=value (an empty value is written name=)`)
    }
    values.set(name, text.slice(at + 1))
  }
  return Either.right(values)
}
