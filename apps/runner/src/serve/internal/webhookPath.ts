/**
 * A webhook's path in one form, so that a request finds its workflow however its client
 * percent-encodes the path: each segment decoded and encoded again the one way (`my%20hook`,
 * `my hook` encoded by a browser, `%C3%BC` and `%c3%bc` are the same path), without a trailing
 * slash. Case is kept: `/hooks/A` and `/hooks/a` are two workflows' paths. A segment that does
 * not decode is kept as it came (it matches no workflow's).
 */

const segment = (text: string) => {
  try {
    return encodeURIComponent(decodeURIComponent(text))
  } catch {
    return text
  }
}

/**
 * A path of characters that `encodeURIComponent` keeps and no `%`, `?` or `#`: each segment is
 * already in the one form (as a webhook's path usually comes), so it is not split.
 */
const inOneForm = /^[A-Za-z0-9\-_.!~*'()/]*$/

/** A URL's pathname (a public URL's, or a request's target without its query) in the one form. */
export const canonical = (pathname: string): string => {
  const path = inOneForm.test(pathname) ? pathname : pathname.split(/[?#]/, 1)[0]!.split("/").map(segment).join("/")
  return path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path
}
